import type { TestProject } from 'vitest/node';
import { chromiumExecutable } from './browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumExecutable: string;
  }
}

/** Unpacks the test browser once per run, before the test files (which run in parallel) start. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromiumExecutable', await chromiumExecutable());
}
