import { resolve } from 'node:path';

/**
 * The platforms' official API descriptions and sample data live beside the repository in
 * `shared/platform-specs` (that is where CI has them); PLATFORM_SPECS_DIR points elsewhere.
 * Emulators and tests read them from here only, never from a copy of their own.
 */
export function platformSpecsDir(): string {
  return (
    process.env.PLATFORM_SPECS_DIR ??
    resolve(import.meta.dirname, '../../../../../shared/platform-specs')
  );
}
