import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entityTypes } from '@replatform/canonical/entities';
import { fidelityMatrix } from './fidelity-matrix.ts';
import { connectorRegistry } from './registry.ts';

const documentUrl = new URL('../../../docs/fidelity.md', import.meta.url);

describe('fidelity matrix', () => {
  it('declares the native fields of every entity each platform reads', () => {
    // A brand is a small record on some platforms: a Shopify brand is a product's vendor, a
    // single text, and a Magento brand an option of an attribute (label, order, store labels).
    for (const connector of Object.values(connectorRegistry)) {
      for (const entity of entityTypes) {
        if (!connector?.capabilities.read.includes(entity)) continue;
        const catalogue = connector.capabilities.nativeFields[entity];
        expect(Object.keys(catalogue ?? {}).length, `${connector.label} ${entity}`).toBeGreaterThan(
          entity === 'brands' ? 0 : 5,
        );
      }
    }
  });

  it('compares in a destination form only what the destination declares it converts', () => {
    for (const connector of Object.values(connectorRegistry)) {
      for (const [entity, fields] of Object.entries(
        connector?.capabilities.destinationFields ?? {},
      ))
        for (const path of Object.keys(fields.comparable ?? {})) {
          const converted = Object.keys(fields.converted ?? {});
          expect(
            converted.some(
              (c) => c === path || c.startsWith(`${path}.`) || path.startsWith(`${c}.`),
            ),
            `${connector?.label} ${entity}.${path} is compared in another form but not declared converted`,
          ).toBe(true);
        }
    }
  });

  it('is what docs/fidelity.md says (run `npm run fidelity` after changing a declaration)', () => {
    expect(readFileSync(documentUrl, 'utf8')).toBe(fidelityMatrix(connectorRegistry));
  });
});
