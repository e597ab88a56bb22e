import type { FastifyLoggerOptions } from 'fastify';
import type { LoggerOptions } from 'pino';

/**
 * pino options. Secrets never reach a log line: credentials, cookies, tokens and passwords are
 * censored wherever they appear in a logged object (headers, bodies, nested errors).
 */
const secretKeys = [
  'password',
  'currentPassword',
  'newPassword',
  'secret',
  'token',
  'accessToken',
  'accessTokenSecret',
  'consumerKey',
  'consumerSecret',
  'apiKey',
  'apiSecret',
  'shopifyAccessToken',
  'destinationConsumerKey',
  'destinationConsumerSecret',
  'destinationAccessToken',
  'destinationAccessTokenSecret',
  'wordpressApplicationPassword',
  'destinationWordpressApplicationPassword',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'sessionToken',
  'webhookSecret',
  'encryptionKey',
  'credentials',
];

export function loggerOptions(level: string): FastifyLoggerOptions & LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-auth-token"]',
        'req.headers["x-shopify-access-token"]',
        'req.headers["stripe-signature"]',
        'res.headers["set-cookie"]',
        // Headers of outbound requests and answers, at the top or one level down.
        ...['authorization', 'cookie', '["x-auth-token"]', '["x-shopify-access-token"]'].flatMap(
          (h) => {
            const path = h.startsWith('[') ? `headers${h}` : `headers.${h}`;
            return [path, `*.${path}`];
          },
        ),
        ...secretKeys.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
      ],
      censor: '[redacted]',
    },
    serializers: {
      // Query strings can carry OAuth codes and HMACs: log the path only.
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
    },
  };
}
