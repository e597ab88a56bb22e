import { describe, expect, it } from 'vitest';
import { initialSelection } from './select-data-step.tsx';

describe('the Select Data cards at first', () => {
  it('select every type while the owner has saved no choice', () => {
    expect(initialSelection({ dataTypes: {} })).toEqual({
      products: true,
      customers: true,
      orders: true,
      coupons: true,
    });
  });

  it('show the saved choice once there is one, even when it deselects everything', () => {
    expect(
      initialSelection({
        dataTypes: { products: true, customers: false, orders: false, coupons: true },
      }),
    ).toEqual({ products: true, customers: false, orders: false, coupons: true });
    expect(
      initialSelection({ dataTypes: { products: false, customers: false, orders: false } }),
    ).toEqual({ products: false, customers: false, orders: false, coupons: false });
  });

  it('leave coupons off in a choice saved before they could be chosen', () => {
    expect(
      initialSelection({ dataTypes: { products: true, customers: true, orders: true } }),
    ).toEqual({ products: true, customers: true, orders: true, coupons: false });
  });
});
