import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/**
 * Every setting the server reads, parsed once at start. Nothing else reads process.env; a bad
 * value stops the process with a list of what is wrong (see loadConfig).
 */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(4001),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().min(1).default('data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    LOG_FORMAT: z.enum(['json', 'text']).optional(),
    TRUST_PROXY: booleanFlag,
    WEB_DIST_DIR: z.string().min(1).default(resolve(repoRoot, 'apps/web/dist')),
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_ISSUER: z.url({ protocol: /^https?$/ }).default('https://accounts.google.com'),
    DEMO_ACCOUNT_TTL_HOURS: z.coerce.number().positive().max(720).default(24),
    /** Records of each selected type a free demo migration moves. */
    DEMO_MIGRATION_LIMIT: z.coerce.number().int().min(1).max(100).default(10),
    /** Free demo migrations one account may start in 24 hours, over all its migrations. */
    DEMO_MIGRATIONS_PER_DAY: z.coerce.number().int().min(0).max(1000).default(10),
    EGRESS_ALLOWLIST: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? '')
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url({ protocol: /^https?$/ }))),
    EGRESS_ALLOW_HTTP: booleanFlag,
    SANDBOX_COUNTS: z
      .string()
      .regex(/^\d+,\d+,\d+$/, 'must be three whole numbers: products,customers,orders')
      .optional(),
    SHOPIFY_API_KEY: z.string().min(1).optional(),
    SHOPIFY_API_SECRET: z.string().min(1).optional(),
    SHOPIFY_SCOPES: z.string().min(1).optional(),
    SANDBOX_STORES: z
      .enum(['true', 'false', '1', '0'])
      .default('true')
      .transform((v) => v === 'true' || v === '1'),
    ENCRYPTION_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded as base64')
      .optional(),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\S+$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
    EMULATED_STORES: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? '')
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z
            .string()
            .regex(
              /^(bigcommerce:[a-z0-9]+|shopify:[a-z0-9-]+\.myshopify\.com)=http:\/\/127\.0\.0\.1:\d+$/,
              'entries must be bigcommerce:<store hash>=http://127.0.0.1:<port> or shopify:<shop>.myshopify.com=http://127.0.0.1:<port>',
            ),
        ),
      ),
    OPERATOR_EMAIL: z.email().optional(),
    WORKERS: z.coerce.number().int().min(0).max(32).default(2),
  })
  .superRefine((env, ctx) => {
    // Sandbox migrations run only in the process that holds their stores (in its memory).
    if (env.WORKERS === 0 && env.SANDBOX_STORES) {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message:
          'can be 0 only with SANDBOX_STORES=false: migrations between sandbox stores run in the process that holds them',
      });
    }
    // The Stripe emulator must never stand in for Stripe where real money is taken.
    if (env.STRIPE_API_BASE && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_API_BASE'],
        message: 'is for tests and local runs only (NODE_ENV development or test)',
      });
    }
    // Emulated stores stand in for real platforms only in tests and local runs.
    if (env.EMULATED_STORES.length && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['EMULATED_STORES'],
        message: 'is for tests and local runs only (NODE_ENV development or test)',
      });
    }
    // Real payments: Checkout's return addresses come from PUBLIC_URL, and the signed webhook is
    // the primary way a payment is recorded (decisions.md section 3).
    if (env.STRIPE_SECRET_KEY && env.NODE_ENV === 'production') {
      if (!env.PUBLIC_URL) {
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_URL'],
          message: 'is required with STRIPE_SECRET_KEY: Checkout returns the payer there',
        });
      }
      if (!env.STRIPE_WEBHOOK_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['STRIPE_WEBHOOK_SECRET'],
          message: 'is required with STRIPE_SECRET_KEY: payments are recorded from signed webhooks',
        });
      }
    }
  })
  .transform((env) => {
    const dataDir = resolve(repoRoot, env.DATA_DIR);
    return {
      env: env.NODE_ENV,
      host: env.HOST,
      port: env.PORT,
      publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
      /**
       * Origins whose pages may send state-changing requests: PUBLIC_URL's; with the local
       * default, also the same server reached as 127.0.0.1, which a browser treats as another
       * origin.
       */
      trustedOrigins: env.PUBLIC_URL
        ? [new URL(env.PUBLIC_URL).origin]
        : [`http://localhost:${env.PORT}`, `http://127.0.0.1:${env.PORT}`],
      dataDir,
      databaseUrl: env.DATABASE_URL,
      sqlitePath: resolve(dataDir, 'replatform.sqlite'),
      logLevel: env.LOG_LEVEL,
      /** Unset: readable lines in a terminal, JSON lines otherwise. */
      logFormat: env.LOG_FORMAT,
      trustProxy: env.TRUST_PROXY,
      webDistDir: resolve(repoRoot, env.WEB_DIST_DIR),
      auth: {
        secret: env.AUTH_SECRET,
        // Generated on first start when AUTH_SECRET is unset, kept outside the database file.
        secretFile: resolve(dataDir, 'keys', 'auth-secret'),
        smtpUrl: env.SMTP_URL,
        mailFrom: env.MAIL_FROM,
        google:
          env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
            ? {
                clientId: env.GOOGLE_CLIENT_ID,
                clientSecret: env.GOOGLE_CLIENT_SECRET,
                issuer: env.GOOGLE_ISSUER.replace(/\/+$/, ''),
              }
            : undefined,
        demoAccountTtlHours: env.DEMO_ACCOUNT_TTL_HOURS,
      },
      /** Free demo migrations before payment: records per type, and how many may be run. */
      demoMigration: {
        limit: env.DEMO_MIGRATION_LIMIT,
        perMigration: 3,
        perDay: env.DEMO_MIGRATIONS_PER_DAY,
      },
      egressAllowlist: env.EGRESS_ALLOWLIST,
      egressAllowHttp: env.EGRESS_ALLOW_HTTP,
      sandboxStores: env.SANDBOX_STORES,
      emulatedStores: env.EMULATED_STORES.map((entry) => {
        const [store = '', origin = ''] = entry.split('=');
        const [platform = '', key = ''] = store.split(':');
        return { platform: platform as 'bigcommerce' | 'shopify', key, origin };
      }),
      sandboxCounts: env.SANDBOX_COUNTS?.split(',').map(Number),
      shopify: {
        apiKey: env.SHOPIFY_API_KEY,
        apiSecret: env.SHOPIFY_API_SECRET,
        scopes: env.SHOPIFY_SCOPES?.split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      },
      /** Receives contact messages and enterprise quote requests by e-mail, when set. */
      operatorEmail: env.OPERATOR_EMAIL,
      encryptionKey: env.ENCRYPTION_KEY,
      // Kept beside, never inside, the database file (decisions.md section 3).
      credentialKeyFile: resolve(dataDir, 'keys', 'credentials.key'),
      /** Migrations this process runs at once (0: it serves requests and runs none). */
      workers: env.WORKERS,
      stripe: {
        secretKey: env.STRIPE_SECRET_KEY,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        // Tests and local runs point the SDK at the Stripe emulator instead of api.stripe.com.
        apiBase: env.STRIPE_API_BASE,
      },
    };
  });

export type Config = z.output<typeof configSchema>;
export type ConfigInput = Partial<z.input<typeof configSchema>>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "not set", as in a .env file with `KEY=`.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`),
    );
  }
  return result.data;
}
