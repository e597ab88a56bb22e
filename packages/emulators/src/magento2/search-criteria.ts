import { MagentoError } from './magento-error.ts';

/**
 * Magento's searchCriteria query parameters (framework-search-criteria-interface in
 * admin-schema-2.4.9.yaml), parsed and applied as Magento's collections do: filters inside one
 * filter group are OR-ed, filter groups are AND-ed, sort orders apply in the order given, and a
 * currentPage past the end answers the last page again (the collection clamps the page number),
 * so a client must stop on total_count, never on an empty page.
 */

export interface Filter {
  field: string;
  value: string;
  conditionType: string;
}

export interface SortOrder {
  field: string;
  direction: 'ASC' | 'DESC';
}

export interface SearchCriteria {
  filterGroups: Filter[][];
  sortOrders: SortOrder[];
  pageSize: number | undefined;
  currentPage: number | undefined;
}

const conditionTypes = new Set([
  'eq',
  'neq',
  'like',
  'nlike',
  'in',
  'nin',
  'gt',
  'gteq',
  'lt',
  'lteq',
  'null',
  'notnull',
  'finset',
  'from',
  'to',
]);

// Magento's web API accepts snake_case and camelCase keys alike (the spec lists camelCase, the
// documentation uses snake_case); both forms are read here.
const filterKey =
  /^searchCriteria\[(?:filter_groups|filterGroups)\]\[(\d+)\]\[filters\]\[(\d+)\]\[(field|value|condition_type|conditionType)\]$/;
const sortKey = /^searchCriteria\[(?:sort_orders|sortOrders)\]\[(\d+)\]\[(field|direction)\]$/;

export function parseSearchCriteria(query: URLSearchParams): SearchCriteria {
  const groups = new Map<number, Map<number, Partial<Filter>>>();
  const sorts = new Map<number, Partial<SortOrder>>();
  let pageSize: number | undefined;
  let currentPage: number | undefined;
  for (const [key, value] of query) {
    const f = filterKey.exec(key);
    if (f) {
      const group = groups.get(Number(f[1])) ?? new Map<number, Partial<Filter>>();
      groups.set(Number(f[1]), group);
      const filter = group.get(Number(f[2])) ?? {};
      group.set(Number(f[2]), filter);
      if (f[3] === 'field') filter.field = value;
      else if (f[3] === 'value') filter.value = value;
      else filter.conditionType = value.toLowerCase();
      continue;
    }
    const s = sortKey.exec(key);
    if (s) {
      const sort = sorts.get(Number(s[1])) ?? {};
      sorts.set(Number(s[1]), sort);
      if (s[2] === 'field') sort.field = value;
      else sort.direction = value.toUpperCase() === 'DESC' ? 'DESC' : 'ASC';
      continue;
    }
    if (key === 'searchCriteria[pageSize]' || key === 'searchCriteria[page_size]') {
      pageSize = integerParam('pageSize', value);
    } else if (key === 'searchCriteria[currentPage]' || key === 'searchCriteria[current_page]') {
      currentPage = integerParam('currentPage', value);
    }
  }
  const filterGroups = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, group]) =>
      [...group.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, filter]) => {
          if (!filter.field) {
            throw new MagentoError(400, '"%fieldName" is required. Enter and try again.', {
              fieldName: 'field',
            });
          }
          const conditionType = filter.conditionType ?? 'eq';
          if (!conditionTypes.has(conditionType)) {
            throw new MagentoError(400, 'Invalid condition type: %1', [conditionType]);
          }
          return { field: filter.field, value: filter.value ?? '', conditionType };
        }),
    );
  const sortOrders = [...sorts.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([, sort]) => sort.field)
    .map(([, sort]) => ({ field: sort.field ?? '', direction: sort.direction ?? 'ASC' }));
  return { filterGroups, sortOrders, pageSize, currentPage };
}

function integerParam(name: string, value: string): number {
  if (!/^-?\d+$/.test(value.trim())) {
    throw new MagentoError(400, 'The "%1" value\'s type is invalid. The "%2" type was expected.', [
      value,
      'int',
    ]);
  }
  return Number(value);
}

/** The search_criteria echo of a list answer, in Magento's snake_case. */
export function searchCriteriaJson(criteria: SearchCriteria): Record<string, unknown> {
  const json: Record<string, unknown> = {
    filter_groups: criteria.filterGroups.map((filters) => ({
      filters: filters.map((f) => ({
        field: f.field,
        value: f.value,
        condition_type: f.conditionType,
      })),
    })),
  };
  if (criteria.sortOrders.length) json.sort_orders = criteria.sortOrders;
  if (criteria.pageSize !== undefined) json.page_size = criteria.pageSize;
  if (criteria.currentPage !== undefined) json.current_page = criteria.currentPage;
  return json;
}

type Scalar = string | number | boolean | null | undefined;

const isNumeric = (v: unknown): v is number | string =>
  typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()));

function compare(a: Scalar, b: Scalar): number {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return -1;
  if (b === null || b === undefined || b === '') return 1;
  if (isNumeric(a) && isNumeric(b)) return Number(a) - Number(b);
  const sa = String(a).toLowerCase();
  const sb = String(b).toLowerCase();
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function likeToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+*?^$()[\]{}|\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/%/g, '.*').replace(/_/g, '.')}$`, 'is');
}

/** One field value matches a filter; multi-valued fields match when any of their values does. */
export function matches(actual: Scalar | Scalar[], filter: Filter): boolean {
  const values = Array.isArray(actual) ? actual : [actual];
  const { value, conditionType } = filter;
  switch (conditionType) {
    case 'null':
      return values.every((v) => v === null || v === undefined);
    case 'notnull':
      return values.some((v) => v !== null && v !== undefined);
    case 'neq':
      return values.every((v) => compare(v, value) !== 0);
    case 'nin': {
      const list = value.split(',').map((s) => s.trim());
      return values.every((v) => !list.some((item) => compare(v, item) === 0));
    }
    case 'nlike':
      return values.every((v) => !likeToRegExp(value).test(String(v ?? '')));
    default:
      return values.some((v) => {
        if (v === null || v === undefined) return false;
        switch (conditionType) {
          case 'eq':
            return compare(v, value) === 0;
          case 'like':
            return likeToRegExp(value).test(String(v));
          case 'in':
            return value
              .split(',')
              .map((s) => s.trim())
              .some((item) => compare(v, item) === 0);
          case 'gt':
            return compare(v, value) > 0;
          case 'gteq':
          case 'from':
            return compare(v, value) >= 0;
          case 'lt':
            return compare(v, value) < 0;
          case 'lteq':
          case 'to':
            return compare(v, value) <= 0;
          case 'finset':
            return String(v)
              .split(',')
              .some((item) => item.trim() === value);
          default:
            return false;
        }
      });
  }
}

export type FieldAccessor<T> = (item: T, field: string) => Scalar | Scalar[];

export interface SearchResult<T> {
  items: T[];
  total: number;
}

/**
 * Filters, sorts and pages `items`. The accessor throws a MagentoError for a field the entity
 * does not have, as Magento's collections refuse unknown attributes.
 */
export function applySearchCriteria<T>(
  items: readonly T[],
  criteria: SearchCriteria,
  field: FieldAccessor<T>,
  options: { maxPageSize?: number; defaultPageSize?: number } = {},
): SearchResult<T> {
  let result = items.filter((item) =>
    criteria.filterGroups.every(
      (group) => group.length === 0 || group.some((f) => matches(field(item, f.field), f)),
    ),
  );
  if (criteria.sortOrders.length) {
    result = [...result].sort((a, b) => {
      for (const order of criteria.sortOrders) {
        const va = field(a, order.field);
        const vb = field(b, order.field);
        const c = compare(Array.isArray(va) ? va[0] : va, Array.isArray(vb) ? vb[0] : vb);
        if (c !== 0) return order.direction === 'DESC' ? -c : c;
      }
      return 0;
    });
  }
  const total = result.length;
  let pageSize = criteria.pageSize ?? options.defaultPageSize;
  if (
    pageSize !== undefined &&
    options.maxPageSize !== undefined &&
    pageSize > options.maxPageSize
  ) {
    throw new MagentoError(400, 'Maximum SearchCriteria pageSize is %max', {
      max: options.maxPageSize,
    });
  }
  if (pageSize === undefined || pageSize <= 0) return { items: result, total };
  pageSize = Math.floor(pageSize);
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, criteria.currentPage ?? 1), lastPage);
  return { items: result.slice((page - 1) * pageSize, page * pageSize), total };
}
