import { describe, expect, it } from 'vitest';
import { initialSelection } from './select-data-step.tsx';

describe('the Select Data cards at first', () => {
  it('select every type while the owner has saved no choice', () => {
    expect(initialSelection({ dataTypes: {} })).toEqual({
      products: true,
      customers: true,
      orders: true,
    });
  });

  it('show the saved choice once there is one, even when it deselects everything', () => {
    expect(
      initialSelection({ dataTypes: { products: true, customers: false, orders: false } }),
    ).toEqual({ products: true, customers: false, orders: false });
    expect(
      initialSelection({ dataTypes: { products: false, customers: false, orders: false } }),
    ).toEqual({ products: false, customers: false, orders: false });
  });
});
