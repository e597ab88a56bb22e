import type { z } from 'zod';
import { brandSchema, type Brand } from './brand.ts';
import { categorySchema, type Category } from './category.ts';
import { pageSchema, postSchema, type Page, type Post } from './content.ts';
import { couponSchema, type Coupon } from './coupon.ts';
import { customerSchema, type Customer } from './customer.ts';
import { orderSchema, type Order } from './order.ts';
import { productSchema, type Product } from './product.ts';
import { reviewSchema, type Review } from './review.ts';

/**
 * The kinds of record a migration moves, in dependency order: brands before the products that
 * name them, coupons after the products and
 * categories they may be limited to, orders after them so their coupon lines find the coupons,
 * reviews after the products they review, then the website's pages (parents first) and blog
 * posts, which name nothing else.
 */
export const entityTypes = [
  'categories',
  'brands',
  'products',
  'coupons',
  'customers',
  'orders',
  'reviews',
  'pages',
  'posts',
] as const;
export type EntityType = (typeof entityTypes)[number];

export interface EntityRecord {
  categories: Category;
  brands: Brand;
  products: Product;
  coupons: Coupon;
  customers: Customer;
  orders: Order;
  reviews: Review;
  pages: Page;
  posts: Post;
}

export const entitySchemas: { [E in EntityType]: z.ZodType<EntityRecord[E]> } = {
  categories: categorySchema,
  brands: brandSchema,
  products: productSchema,
  coupons: couponSchema,
  customers: customerSchema,
  orders: orderSchema,
  reviews: reviewSchema,
  pages: pageSchema,
  posts: postSchema,
};
