import { describe, expect, it } from 'vitest';
import {
  dataTypeNames,
  platforms,
  unsupportedDataTypes,
  unwritableDataTypes,
} from '@replatform/contracts/migration';
import { connectorRegistry } from './registry.ts';

describe('the data types the product offers per platform', () => {
  it.each(platforms)(
    'are exactly those the %s connector reads and writes: the rest are named unavailable with a reason',
    (platform) => {
      const connector = connectorRegistry[platform];
      expect(connector, platform).toBeDefined();
      for (const type of dataTypeNames) {
        const reads = connector!.capabilities.read.includes(type);
        const writes = connector!.capabilities.write.includes(type);
        const reason = unsupportedDataTypes[platform][type];
        const unwritable = unwritableDataTypes[platform][type];
        if (reads && writes) {
          expect(reason, `${platform} ${type}`).toBeUndefined();
          expect(unwritable, `${platform} ${type}`).toBeUndefined();
        } else if (reads) {
          // Given out as a source only: the reason it cannot be written is named.
          expect(reason, `${platform} ${type}`).toBeUndefined();
          expect(unwritable, `${platform} ${type}`).toMatch(/\w{3,}.*\./);
        } else {
          expect(reason, `${platform} ${type}`).toMatch(/\w{3,}.*\./);
          expect(writes, `${platform} ${type}`).toBe(false);
        }
      }
    },
  );
});
