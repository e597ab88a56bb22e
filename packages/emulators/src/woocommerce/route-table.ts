import table from './wc-v3-routes.json' with { type: 'json' };

/**
 * The wc/v3 routes this emulator serves, with their arguments exactly as WooCommerce 11.0.1
 * describes them (`GET /wp-json/wc/v3?context=help`, descriptions left out). The JSON file is
 * generated from shared/platform-specs/woocommerce/wc-v3-index.woocommerce-11.0.1.json and a
 * test keeps the two equal, so routing and argument checks follow the platform's own description.
 */

/** A WordPress REST argument schema (JSON Schema subset WordPress validates with). */
export interface ArgSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  format?: string;
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  default?: unknown;
  required?: boolean;
  readonly?: boolean;
}

export interface RouteEndpoint {
  methods: string[];
  args: Record<string, ArgSchema>;
}

export interface RouteEntry {
  namespace: string;
  methods: string[];
  endpoints: RouteEndpoint[];
}

export const routeTable = table as unknown as Record<string, RouteEntry>;

/** WordPress route patterns are PCRE (`(?P<id>[\d]+)`); JavaScript spells named groups `(?<id>`. */
export function compileRoutePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\(\?P</g, '(?<')}$`);
}

const compiled = Object.keys(routeTable).map((pattern) => ({
  pattern,
  regex: compileRoutePattern(pattern),
}));

export interface RouteMatch {
  pattern: string;
  params: Record<string, string>;
  route: RouteEntry;
  /** The endpoint serving the method, or undefined when the route exists but not the method. */
  endpoint: RouteEndpoint | undefined;
}

/** Finds the route of a REST path such as '/wc/v3/products/12', as WP_REST_Server does. */
export function matchRoute(method: string, restPath: string): RouteMatch | undefined {
  for (const { pattern, regex } of compiled) {
    const found = regex.exec(restPath);
    if (!found) continue;
    const route = routeTable[pattern];
    if (!route) continue;
    const endpoint = route.endpoints.find((e) => e.methods.includes(method));
    return { pattern, params: { ...found.groups }, route, endpoint };
  }
  return undefined;
}
