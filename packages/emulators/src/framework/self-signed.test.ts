import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { createSelfSignedCertificate, emulatorCertificates } from './self-signed.ts';
import { startEmulator } from './server.ts';

function get(url: string, ca: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, ca === undefined ? {} : { ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('self-signed certificates', () => {
  it('makes a valid X.509 certificate for the loopback names, signed by its own key', () => {
    const { cert, key } = createSelfSignedCertificate({ days: 2, commonName: 'Test store' });
    const x509 = new X509Certificate(cert);
    expect(x509.subject).toBe('CN=Test store');
    expect(x509.issuer).toBe('CN=Test store');
    expect(x509.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost');
    expect(x509.ca).toBe(true);
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(x509.checkHost('example.com')).toBeUndefined();
    const lifetime = Date.parse(x509.validTo) - Date.parse(x509.validFrom);
    expect(lifetime).toBe(3 * 86_400_000);
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    // Every certificate is different and remembered for emulators that fetch from each other.
    expect(createSelfSignedCertificate().cert).not.toBe(cert);
    expect(emulatorCertificates()).toContain(cert);
  });

  it('covers IPv6 addresses and other names when asked', () => {
    const x509 = new X509Certificate(
      createSelfSignedCertificate({ hosts: ['::1', 'shop.test'] }).cert,
    );
    expect(x509.subjectAltName).toBe('IP Address:0:0:0:0:0:0:0:1, DNS:shop.test');
  });

  it('lets an emulator serve https that only clients trusting the certificate accept', async () => {
    const emulator = await startEmulator(() => ({ status: 200, body: 'secure' }), { tls: true });
    try {
      expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await get(`${emulator.url}/`, emulator.certificate)).toEqual({
        status: 200,
        body: 'secure',
      });
      await expect(get(`${emulator.url}/`, undefined)).rejects.toMatchObject({
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
      expect(emulator.stats.requests).toBe(1);
    } finally {
      await emulator.close();
    }
  });

  it('injects the same faults over TLS', async () => {
    const emulator = await startEmulator(() => ({ status: 200, body: { ok: true } }), {
      tls: true,
      faults: { resetRate: 1 },
    });
    try {
      await expect(get(`${emulator.url}/`, emulator.certificate)).rejects.toThrow();
      expect(emulator.stats.faultsInjected).toBe(1);
    } finally {
      await emulator.close();
    }
  });
});
