import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@replatform/emulators/framework/server';
import type { RequestLimiter } from '../contract.ts';
import { loopbackHttp } from './loopback-http.ts';

const emulators: RunningEmulator[] = [];
async function start(options: Parameters<typeof startEmulator>[1] = {}) {
  const emulator = await startEmulator(() => ({ status: 200, body: { ok: true } }), options);
  emulators.push(emulator);
  return emulator;
}
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

describe('loopbackHttp', () => {
  it('answers status, headers and body, and records what was sent', async () => {
    const emulator = await start();
    const http = loopbackHttp();
    const response = await http.request({ method: 'GET', url: `${emulator.url}/x?y=1` });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/json/);
    expect(JSON.parse(new TextDecoder().decode(response.body))).toEqual({ ok: true });
    expect(http.requests.map((r) => r.url)).toEqual([`${emulator.url}/x?y=1`]);
  });

  it('refuses every host but 127.0.0.1', async () => {
    await expect(
      loopbackHttp().request({ method: 'GET', url: 'http://localhost:1/' }),
    ).rejects.toThrow(/refuses/);
  });

  it('times out like the production client, with a transient error', async () => {
    const emulator = await start({ faults: { timeoutRate: 1 } });
    await expect(
      loopbackHttp({ timeoutMs: 100 }).request({ method: 'GET', url: emulator.url }),
    ).rejects.toMatchObject({ errorClass: 'transient', code: 'timeout' });
  });

  it("stops at the request's signal with the signal's reason", async () => {
    const emulator = await start({ faults: { timeoutRate: 1 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('paused')), 30);
    await expect(
      loopbackHttp().request({ method: 'GET', url: emulator.url, signal: controller.signal }),
    ).rejects.toThrow('paused');
  });

  it("takes a slot of the request's limiter and gives it back", async () => {
    const emulator = await start();
    const events: string[] = [];
    const limiter: RequestLimiter = {
      acquire: async () => {
        events.push('acquire');
        return () => events.push('release');
      },
    };
    await loopbackHttp().request({ method: 'GET', url: emulator.url, limiter });
    expect(events).toEqual(['acquire', 'release']);
  });

  it('speaks https to an emulator in TLS mode when given its certificate', async () => {
    const emulator = await start({ tls: true });
    expect(emulator.url).toMatch(/^https:/);
    const http = loopbackHttp({ ca: emulator.certificate ?? '' });
    try {
      expect((await http.request({ method: 'GET', url: emulator.url })).status).toBe(200);
    } finally {
      await http.close();
    }
    await expect(loopbackHttp().request({ method: 'GET', url: emulator.url })).rejects.toThrow();
  });
});
