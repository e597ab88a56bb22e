// Writes docs/fidelity.md from the connectors' field declarations (see fidelity-matrix.ts).
import { writeFileSync } from 'node:fs';
import { fidelityMatrix } from '@replatform/connectors/fidelity-matrix';
import { connectorRegistry } from '@replatform/connectors/registry';

const target = new URL('../docs/fidelity.md', import.meta.url);
writeFileSync(target, fidelityMatrix(connectorRegistry));
console.log(`Wrote ${target.pathname.split('/').slice(-2).join('/')}`);
