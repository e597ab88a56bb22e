import { describe, expect, it } from 'vitest';
import { MagentoError } from './magento-error.ts';
import {
  applySearchCriteria,
  matches,
  parseSearchCriteria,
  searchCriteriaJson,
} from './search-criteria.ts';

interface Row {
  id: number;
  name: string;
  price: number;
  tags: string[];
  note: string | null;
}

const rows: Row[] = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  name: `Item ${String.fromCharCode(65 + (i % 5))}${i + 1}`,
  price: (i % 7) * 10,
  tags: i % 2 ? ['odd'] : ['even', 'x'],
  note: i % 3 ? null : 'noted',
}));
const field = (r: Row, f: string) => {
  if (f === 'id' || f === 'name' || f === 'price' || f === 'note') return r[f];
  if (f === 'tags') return r.tags;
  throw new MagentoError(400, 'Invalid attribute name: %1', [f]);
};
const q = (s: string) => new URLSearchParams(s);

describe('searchCriteria', () => {
  it('reads snake_case and camelCase keys alike, in index order', () => {
    const criteria = parseSearchCriteria(
      q(
        'searchCriteria[filter_groups][1][filters][0][field]=price&searchCriteria[filter_groups][1][filters][0][value]=20&searchCriteria[filter_groups][1][filters][0][condition_type]=gteq' +
          '&searchCriteria[filterGroups][0][filters][0][field]=name&searchCriteria[filterGroups][0][filters][0][value]=Item A%&searchCriteria[filterGroups][0][filters][0][conditionType]=like' +
          '&searchCriteria[sortOrders][0][field]=price&searchCriteria[sortOrders][0][direction]=desc&searchCriteria[pageSize]=3&searchCriteria[currentPage]=2',
      ),
    );
    expect(criteria.filterGroups).toEqual([
      [{ field: 'name', value: 'Item A%', conditionType: 'like' }],
      [{ field: 'price', value: '20', conditionType: 'gteq' }],
    ]);
    expect(criteria.sortOrders).toEqual([{ field: 'price', direction: 'DESC' }]);
    expect(searchCriteriaJson(criteria)).toMatchObject({ page_size: 3, current_page: 2 });
  });

  it('ORs filters of a group and ANDs the groups', () => {
    const criteria = parseSearchCriteria(
      q(
        'searchCriteria[filter_groups][0][filters][0][field]=id&searchCriteria[filter_groups][0][filters][0][value]=2&' +
          'searchCriteria[filter_groups][0][filters][1][field]=id&searchCriteria[filter_groups][0][filters][1][value]=7&' +
          'searchCriteria[filter_groups][1][filters][0][field]=tags&searchCriteria[filter_groups][1][filters][0][value]=odd',
      ),
    );
    const result = applySearchCriteria(rows, criteria, field);
    expect(result.items.map((r) => r.id)).toEqual([2]);
    expect(result.total).toBe(1);
  });

  it('implements the condition types', () => {
    const f = (conditionType: string, value: string) => ({ field: 'x', value, conditionType });
    expect(matches(5, f('eq', '5'))).toBe(true);
    expect(matches('ABC', f('eq', 'abc'))).toBe(true);
    expect(matches(5, f('neq', '5'))).toBe(false);
    expect(matches('Blue Shirt', f('like', '%shirt'))).toBe(true);
    expect(matches('Blue Shirt', f('nlike', 'Blue%'))).toBe(false);
    expect(matches(3, f('in', '1, 3,5'))).toBe(true);
    expect(matches(4, f('nin', '1,3,5'))).toBe(true);
    expect(matches(10, f('gt', '9'))).toBe(true);
    expect(matches(10, f('gt', '10'))).toBe(false);
    expect(matches(10, f('gteq', '10'))).toBe(true);
    expect(matches(9, f('lt', '10'))).toBe(true);
    expect(matches(10, f('lteq', '10'))).toBe(true);
    expect(matches(null, f('null', ''))).toBe(true);
    expect(matches('x', f('notnull', ''))).toBe(true);
    expect(matches('a,b,c', f('finset', 'b'))).toBe(true);
    expect(matches('2024-05-01 10:00:00', f('gt', '2024-04-30 23:59:59'))).toBe(true);
  });

  it('answers the last page again for a currentPage past the end', () => {
    const page = (n: number) =>
      applySearchCriteria(
        rows,
        parseSearchCriteria(q(`searchCriteria[pageSize]=10&searchCriteria[currentPage]=${n}`)),
        field,
      );
    expect(page(1).items.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(page(3).items.map((r) => r.id)).toEqual([21, 22, 23, 24, 25]);
    expect(page(4).items).toEqual(page(3).items);
    expect(page(99).total).toBe(25);
  });

  it('returns everything without pageSize, and enforces the input limit when configured', () => {
    expect(applySearchCriteria(rows, parseSearchCriteria(q('')), field).items).toHaveLength(25);
    expect(
      applySearchCriteria(rows, parseSearchCriteria(q('')), field, {
        defaultPageSize: 20,
        maxPageSize: 300,
      }).items,
    ).toHaveLength(20);
    expect(() =>
      applySearchCriteria(rows, parseSearchCriteria(q('searchCriteria[pageSize]=301')), field, {
        maxPageSize: 300,
      }),
    ).toThrow('Maximum SearchCriteria pageSize is %max');
  });

  it('sorts by several fields and refuses unknown fields and conditions', () => {
    const sorted = applySearchCriteria(
      rows,
      parseSearchCriteria(
        q(
          'searchCriteria[sortOrders][0][field]=price&searchCriteria[sortOrders][0][direction]=DESC&searchCriteria[sortOrders][1][field]=id&searchCriteria[sortOrders][1][direction]=ASC',
        ),
      ),
      field,
    ).items;
    expect(sorted.slice(0, 4).map((r) => [r.price, r.id])).toEqual([
      [60, 7],
      [60, 14],
      [60, 21],
      [50, 6],
    ]);
    expect(() =>
      applySearchCriteria(
        rows,
        parseSearchCriteria(
          q(
            'searchCriteria[filter_groups][0][filters][0][field]=colour&searchCriteria[filter_groups][0][filters][0][value]=1',
          ),
        ),
        field,
      ),
    ).toThrow(MagentoError);
    expect(() =>
      parseSearchCriteria(
        q(
          'searchCriteria[filter_groups][0][filters][0][field]=id&searchCriteria[filter_groups][0][filters][0][condition_type]=approx',
        ),
      ),
    ).toThrow('Invalid condition type');
    expect(() => parseSearchCriteria(q('searchCriteria[pageSize]=ten'))).toThrow(MagentoError);
  });
});
