import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  normaliseParameters,
  parseAuthorizationHeader,
  percentEncode,
  signRequest,
  signatureBaseString,
  verifySignature,
} from './oauth1.ts';

describe('OAuth 1.0a signing', () => {
  it('percent-encodes as RFC 3986 requires', () => {
    expect(percentEncode("Ladies + Gentlemen!*'()")).toBe(
      'Ladies%20%2B%20Gentlemen%21%2A%27%28%29',
    );
    expect(percentEncode('-._~')).toBe('-._~');
    expect(percentEncode('☃')).toBe('%E2%98%83');
  });

  it('matches the RFC 5849 section 3.4.1 parameter normalisation example', () => {
    const pairs: [string, string][] = [
      ['b5', '=%3D'],
      ['a3', 'a'],
      ['c@', ''],
      ['a2', 'r b'],
      ['oauth_consumer_key', '9djdj82h48djs9d2'],
      ['oauth_token', 'kkk9d7dh3k39sjv7'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '137131201'],
      ['oauth_nonce', '7d8f3e4a'],
      ['c2', ''],
      ['a3', '2 q'],
    ];
    expect(normaliseParameters(pairs)).toBe(
      'a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7',
    );
  });

  it('reproduces the OAuth 1.0 specification example signature (photos.example.net)', () => {
    const oauth = signRequest({
      method: 'GET',
      url: 'http://photos.example.net/photos?file=vacation.jpg&size=original',
      credentials: {
        consumerKey: 'dpf43f3p2l4k3l03',
        consumerSecret: 'kd94hf93k423kf44',
        token: 'nnch734d00sl2jdk',
        tokenSecret: 'pfkkdhi9sl3r4s00',
      },
      signatureMethod: 'HMAC-SHA1',
      timestamp: 1191242096,
      nonce: 'kllo9940pd9333jh',
    });
    expect(oauth.oauth_signature).toBe('tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
    const base = signatureBaseString(
      'GET',
      new URL('http://photos.example.net/photos?file=vacation.jpg&size=original'),
      [
        ['file', 'vacation.jpg'],
        ['size', 'original'],
        ...Object.entries(oauth).filter(([k]) => k !== 'oauth_signature'),
      ],
    );
    expect(base).toBe(
      'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal',
    );
  });

  // RFC 5849 section 3.4.1.1: a POST whose query string and form body both take part.
  const rfcRequest = {
    url: 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b',
    // The form body is 'c2&a3=2+q'; form decoding reads '+' as a space and 'c2' as an empty value.
    form: [...new URLSearchParams('c2&a3=2+q')] as [string, string][],
    oauth: {
      oauth_consumer_key: '9djdj82h48djs9d2',
      oauth_token: 'kkk9d7dh3k39sjv7',
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: '137131201',
      oauth_nonce: '7d8f3e4a',
    },
  };

  it('builds the RFC 5849 section 3.4.1.1 signature base string (POST with a form body)', () => {
    const url = new URL(rfcRequest.url);
    expect(rfcRequest.form).toEqual([
      ['c2', ''],
      ['a3', '2 q'],
    ]);
    const base = signatureBaseString('POST', url, [
      ...url.searchParams,
      ...rfcRequest.form,
      ...Object.entries(rfcRequest.oauth),
    ]);
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });

  it('signs with HMAC-SHA256 to values computed independently of this code', () => {
    // Expected values: `printf '%s' "<base string>" | openssl dgst -sha256 -hmac
    // 'kd94hf93k423kf44&pfkkdhi9sl3r4s00' -binary | base64`, the base strings written out by hand.
    const credentials = {
      consumerKey: '9djdj82h48djs9d2',
      consumerSecret: 'kd94hf93k423kf44',
      token: 'kkk9d7dh3k39sjv7',
      tokenSecret: 'pfkkdhi9sl3r4s00',
    };
    const form = signRequest({
      method: 'POST',
      url: rfcRequest.url,
      credentials,
      signatureMethod: 'HMAC-SHA256',
      formParameters: rfcRequest.form,
      timestamp: 137131201,
      nonce: '7d8f3e4a',
    });
    // Base string: the section 3.4.1.1 one with HMAC-SHA256 and oauth_version=1.0.
    expect(form.oauth_signature).toBe('lR/gIZdpaZgGqrQvKiHxEUWEofVT8kpuF4phYcG7mgY=');
    expect(
      verifySignature({
        method: 'POST',
        url: rfcRequest.url,
        oauth: form,
        formParameters: rfcRequest.form,
        consumerSecret: credentials.consumerSecret,
        tokenSecret: credentials.tokenSecret,
      }),
    ).toBe(true);
    // Without the form parameters the signature no longer holds: the body is covered.
    expect(
      verifySignature({
        method: 'POST',
        url: rfcRequest.url,
        oauth: form,
        consumerSecret: credentials.consumerSecret,
        tokenSecret: credentials.tokenSecret,
      }),
    ).toBe(false);

    const photos = signRequest({
      method: 'GET',
      url: 'http://photos.example.net/photos?file=vacation.jpg&size=original',
      credentials: {
        consumerKey: 'dpf43f3p2l4k3l03',
        consumerSecret: 'kd94hf93k423kf44',
        token: 'nnch734d00sl2jdk',
        tokenSecret: 'pfkkdhi9sl3r4s00',
      },
      signatureMethod: 'HMAC-SHA256',
      timestamp: 1191242096,
      nonce: 'kllo9940pd9333jh',
    });
    expect(photos.oauth_signature).toBe('WVPzl1j6ZsnkIjWr7e3OZ3jkenL57KwaLFhYsroX1hg=');
  });

  it('verifies its own HMAC-SHA256 signatures and refuses a wrong secret or altered URL', () => {
    const credentials = {
      consumerKey: 'ck_1',
      consumerSecret: 'cs_1',
      token: 't',
      tokenSecret: 'ts',
    };
    const url = 'http://127.0.0.1:8080/rest/V1/products?searchCriteria[pageSize]=10';
    const oauth = signRequest({ method: 'GET', url, credentials });
    const header = authorizationHeader(oauth);
    const parsed = parseAuthorizationHeader(header);
    expect(parsed).toEqual(oauth);
    const ok = {
      method: 'GET',
      url,
      oauth: parsed ?? {},
      consumerSecret: 'cs_1',
      tokenSecret: 'ts',
    };
    expect(verifySignature(ok)).toBe(true);
    expect(verifySignature({ ...ok, consumerSecret: 'wrong' })).toBe(false);
    expect(verifySignature({ ...ok, tokenSecret: 'wrong' })).toBe(false);
    expect(verifySignature({ ...ok, url: `${url}0` })).toBe(false);
    expect(verifySignature({ ...ok, method: 'POST' })).toBe(false);
  });

  it('verifies one-legged signatures carried in the query string (WooCommerce over http)', () => {
    const credentials = { consumerKey: 'ck_x', consumerSecret: 'cs_x' };
    const base = 'http://127.0.0.1:9000/wp-json/wc/v3/products?per_page=100&page=2';
    const oauth = signRequest({ method: 'GET', url: base, credentials });
    const signed = new URL(base);
    for (const [k, v] of Object.entries(oauth)) signed.searchParams.set(k, v);
    const fromQuery = Object.fromEntries(
      [...signed.searchParams].filter(([k]) => k.startsWith('oauth_')),
    );
    expect(
      verifySignature({
        method: 'GET',
        url: signed.toString(),
        oauth: fromQuery,
        consumerSecret: 'cs_x',
      }),
    ).toBe(true);
    expect(
      verifySignature({
        method: 'GET',
        url: signed.toString(),
        oauth: fromQuery,
        consumerSecret: 'cs_y',
      }),
    ).toBe(false);
  });
});
