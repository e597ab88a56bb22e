import type { z } from 'zod';
import { categorySchema, type Category } from './category.ts';
import { customerSchema, type Customer } from './customer.ts';
import { orderSchema, type Order } from './order.ts';
import { productSchema, type Product } from './product.ts';

/** The kinds of record a migration moves, in dependency order. */
export const entityTypes = ['categories', 'products', 'customers', 'orders'] as const;
export type EntityType = (typeof entityTypes)[number];

export interface EntityRecord {
  categories: Category;
  products: Product;
  customers: Customer;
  orders: Order;
}

export const entitySchemas: { [E in EntityType]: z.ZodType<EntityRecord[E]> } = {
  categories: categorySchema,
  products: productSchema,
  customers: customerSchema,
  orders: orderSchema,
};
