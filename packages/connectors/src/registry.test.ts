import { describe, expect, it } from 'vitest';
import { dataTypeNames, platforms, unsupportedDataTypes } from '@replatform/contracts/migration';
import { connectorRegistry } from './registry.ts';

describe('the data types the product offers per platform', () => {
  it.each(platforms)(
    'are exactly those the %s connector reads and writes: the rest are named unavailable with a reason',
    (platform) => {
      const connector = connectorRegistry[platform];
      expect(connector, platform).toBeDefined();
      for (const type of dataTypeNames) {
        const carried =
          connector!.capabilities.read.includes(type) &&
          connector!.capabilities.write.includes(type);
        const reason = unsupportedDataTypes[platform][type];
        if (carried) expect(reason, `${platform} ${type}`).toBeUndefined();
        else expect(reason, `${platform} ${type}`).toMatch(/\w{3,}.*\./);
      }
    },
  );
});
