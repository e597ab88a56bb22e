import type { WooStore } from './shop.ts';
import { asInt, asList, asString, parseWcDate, type Json } from './store.ts';
import { RestError } from './wp-rest.ts';
import { filterCommentHtml, relUgc, sanitizeCommentAuthor, sanitizeEmail } from './wp-text.ts';

/**
 * Product reviews as WooCommerce 11.0.1 keeps them: WordPress comments of type 'review' on the
 * product, with the rating and the "verified owner" flag in comment meta. The rules here are the
 * V3 product reviews controller's and WordPress's comment functions', as a real store showed them
 * (real-store/observed-behaviour.ts in the connectors keeps each one as a test):
 *
 * - a create needs a product and a text (not '' nor '0'); the name, address and text may be at
 *   most 245, 100 and 65,525 bytes long;
 * - WordPress refuses a review that repeats one of the product's that is not in the bin: same
 *   name, same address (when one is given) and same text, compared without regard to case
 *   (`comment_duplicate`, 409), whatever the dates;
 * - the name is saved as plain text on one line, HTML-escaped; an address WordPress does not
 *   accept is saved as ''; the text keeps its HTML on a create (the API key's user may post
 *   unfiltered HTML) with rel "nofollow ugc" added to its links, but any update passes it through
 *   the comment filter, which keeps only a few inline tags (the review's own author, nobody, may
 *   not post unfiltered HTML);
 * - `date_created` or `date_created_gmt` set the date on a create and an update, although the
 *   index lists both read-only; `verified: true` sets the flag (false changes nothing); a rating
 *   is stored as it is given (0 or none is 0; no range is checked);
 * - the status is applied after the review is saved: approved, hold, spam, trash, and unspam /
 *   untrash, which restore the status the review had before it was spammed or binned by an
 *   update (hold when there is none, as for a review created spam or binned);
 * - "verified" is worked out the first time a review is answered, when nothing set it: whether
 *   a paid order (processing or completed) of the product or one of its variations has the
 *   review's address as its billing e-mail; the answer is then kept.
 */

/** WordPress's comment_approved: '1' approved, '0' held for moderation, 'spam', 'trash'. */
export type Approval = '1' | '0' | 'spam' | 'trash';

export interface Review {
  id: number;
  productId: number;
  /** As WordPress saves it: plain text, HTML-escaped. */
  author: string;
  email: string;
  content: string;
  rating: number;
  approved: Approval;
  /** ms, whole seconds (the database keeps seconds). */
  created: number;
  /** The `verified` meta; undefined until it is set or worked out. */
  verified: boolean | undefined;
  /** _wp_trash_meta_status: what a spammed or binned review was before. */
  before: Approval | undefined;
}

/** Statuses as the API answers them (prepare_status_response). */
export const reviewStatusOf: Record<Approval, string> = {
  '1': 'approved',
  '0': 'hold',
  spam: 'spam',
  trash: 'trash',
};

const maxBytes = { author: 245, email: 100, content: 65_525 };
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** PHP's empty() on a request value. */
const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || v === '0' || v === 0 || v === false;
/** MySQL's comparison under the store's case-insensitive collation (trailing spaces ignored). */
const sameText = (a: string, b: string) =>
  a.replace(/ +$/, '').toLowerCase() === b.replace(/ +$/, '').toLowerCase();
const wholeSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

export class ProductReviews {
  readonly all = new Map<number, Review>();
  private readonly store: WooStore;

  constructor(store: WooStore) {
    this.store = store;
  }

  get(id: number): Review {
    const review = id > 0 ? this.all.get(id) : undefined;
    if (!review)
      throw new RestError(404, 'woocommerce_rest_review_invalid_id', 'Invalid review ID.');
    if (!this.store.products.has(review.productId))
      throw new RestError(404, 'woocommerce_rest_product_invalid_id', 'Invalid product ID.');
    return review;
  }

  private requireProduct(id: number): void {
    if (!this.store.products.has(id))
      throw new RestError(404, 'woocommerce_rest_product_invalid_id', 'Invalid product ID.');
  }

  /** wp_check_comment_data_max_lengths(), with the review controller's error codes. */
  private checkLengths(input: Json): void {
    const over = (key: string, limit: number) =>
      input[key] !== undefined && bytes(asString(input[key])) > limit;
    const code = over('reviewer', maxBytes.author)
      ? 'reviewer_column_length'
      : over('reviewer_email', maxBytes.email)
        ? 'reviewer_email_column_length'
        : over('review', maxBytes.content)
          ? 'review_content_column_length'
          : undefined;
    if (code)
      throw new RestError(
        400,
        `woocommerce_rest_${code}`,
        'Product review field exceeds maximum length allowed.',
      );
  }

  /** The date a create or update sets: date_created (site time, UTC) before date_created_gmt. */
  private dateOf(input: Json): number | undefined {
    const local = isEmpty(input.date_created) ? undefined : parseWcDate(input.date_created);
    if (local !== undefined) return wholeSeconds(local);
    const gmt = isEmpty(input.date_created_gmt) ? undefined : parseWcDate(input.date_created_gmt);
    return gmt === undefined ? undefined : wholeSeconds(gmt);
  }

  /** WC_REST_Product_Reviews_Controller::create_item(). */
  create(input: Json, home: string): Review {
    if (!isEmpty(input.id))
      throw new RestError(
        400,
        'woocommerce_rest_review_exists',
        'Cannot create existing product review.',
      );
    const productId = asInt(input.product_id);
    this.requireProduct(productId);
    const content = asString(input.review);
    if (isEmpty(input.review))
      throw new RestError(
        400,
        'woocommerce_rest_review_content_invalid',
        'Invalid review content.',
      );
    this.checkLengths(input);
    const author = asString(input.reviewer);
    const email = asString(input.reviewer_email);
    // wp_allow_comment(): the duplicate check compares what was sent with what is saved.
    const duplicate = [...this.all.values()].some(
      (r) =>
        r.productId === productId &&
        r.approved !== 'trash' &&
        sameText(r.author, author) &&
        (email === '' || sameText(r.email, email)) &&
        sameText(r.content, content),
    );
    if (duplicate)
      throw new RestError(
        409,
        'woocommerce_rest_comment_duplicate',
        'Duplicate comment detected; it looks as though you&#8217;ve already said that!',
      );
    const review: Review = {
      id: this.store.noteId(),
      productId,
      author: sanitizeCommentAuthor(author),
      email: sanitizeEmail(email),
      content: relUgc(content, home),
      rating: isEmpty(input.rating) ? 0 : Math.trunc(Number(input.rating)) || 0,
      approved: '1',
      created: this.dateOf(input) ?? wholeSeconds(this.store.now()),
      verified: isEmpty(input.verified) ? undefined : true,
      before: undefined,
    };
    this.all.set(review.id, review);
    // The status argument's default ('approved') applies when none is sent.
    this.setStatus(review, asString(input.status ?? 'approved'), true);
    return review;
  }

  /** WC_REST_Product_Reviews_Controller::update_item(): every update goes through wp_update_comment(). */
  update(review: Review, input: Json, home: string): Review {
    if (input.product_id !== undefined && asInt(input.product_id) !== 0)
      this.requireProduct(asInt(input.product_id));
    if (input.review !== undefined && isEmpty(input.review))
      throw new RestError(
        400,
        'woocommerce_rest_review_content_invalid',
        'Invalid review content.',
      );
    this.checkLengths(input);
    const next = structuredClone(review);
    if (input.product_id !== undefined && asInt(input.product_id) !== 0)
      next.productId = asInt(input.product_id);
    if (input.reviewer !== undefined) next.author = asString(input.reviewer);
    if (input.reviewer_email !== undefined) next.email = asString(input.reviewer_email);
    if (input.review !== undefined) next.content = asString(input.review);
    next.created = this.dateOf(input) ?? next.created;
    // wp_filter_comment() on the whole comment, the comment filter included.
    next.author = sanitizeCommentAuthor(next.author);
    next.email = sanitizeEmail(next.email);
    next.content = filterCommentHtml(next.content, home);
    if (input.status !== undefined) this.setStatus(next, asString(input.status), false);
    if (!isEmpty(input.rating)) next.rating = Math.trunc(Number(input.rating)) || 0;
    if (!isEmpty(input.verified)) next.verified = true;
    this.all.set(next.id, next);
    return next;
  }

  /** handle_status_param(): nothing changes when the review is in that status already. */
  private setStatus(review: Review, status: string, creating: boolean): void {
    const current = review.approved;
    const remember = () => {
      // A review spammed or binned as it is created keeps no earlier status (seen on 11.0.1).
      review.before = creating ? undefined : current;
    };
    switch (status) {
      case 'approved':
      case 'approve':
      case '1':
        review.approved = '1';
        break;
      case 'hold':
      case '0':
        review.approved = '0';
        break;
      case 'spam':
        if (current !== 'spam') remember();
        review.approved = 'spam';
        break;
      case 'trash':
        if (current !== 'trash') remember();
        review.approved = 'trash';
        break;
      case 'unspam':
      case 'untrash':
        review.approved = review.before ?? '0';
        review.before = undefined;
        break;
      default:
        break;
    }
  }

  /** DELETE reviews/{id}: with force the review is deleted, otherwise it goes to the bin once. */
  remove(review: Review, force: boolean): void {
    if (force) {
      this.all.delete(review.id);
      return;
    }
    if (review.approved === 'trash')
      throw new RestError(
        410,
        'woocommerce_rest_already_trashed',
        'The object has already been trashed.',
      );
    review.before = review.approved;
    review.approved = 'trash';
  }

  /**
   * wc_review_is_from_verified_owner(): the flag set on the review, or else worked out now from
   * the store's paid orders and kept.
   */
  verifiedOf(review: Review): boolean {
    if (review.verified !== undefined) return review.verified;
    const email = review.email.toLowerCase();
    const variations = new Set(this.store.variationsOf(review.productId).map((v) => v.id));
    review.verified =
      email !== '' &&
      [...this.store.orders.values()].some(
        (o) =>
          ['processing', 'completed'].includes(o.status) &&
          o.billing.email.toLowerCase() === email &&
          o.lineItems.some(
            (l) => l.productId === review.productId || variations.has(l.variationId),
          ),
      );
    return review.verified;
  }

  /** get_items(): the WP_Comment_Query a list request makes. */
  list(args: Json): Review[] {
    // `status` goes through sanitize_key only: a status outside the documented ones is not
    // refused. WP_Comment_Query reads 'all' as approved and held, 'any' as every status.
    const status = asString(args.status ?? 'approved')
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '');
    const statuses: readonly Approval[] =
      status === 'any'
        ? ['1', '0', 'spam', 'trash']
        : status === 'all'
          ? ['1', '0']
          : status === 'approved' || status === 'approve'
            ? ['1']
            : status === 'hold'
              ? ['0']
              : status === 'spam' || status === 'trash'
                ? [status]
                : [];
    const ids = (v: unknown) => asList(v).map(asInt);
    const products = ids(args.product);
    const include = ids(args.include);
    const exclude = ids(args.exclude);
    const email = asString(args.reviewer_email).toLowerCase();
    const search = asString(args.search).toLowerCase();
    const after = parseWcDate(args.after);
    const before = parseWcDate(args.before);
    const items = [...this.all.values()].filter(
      (r) =>
        this.store.products.has(r.productId) &&
        statuses.includes(r.approved) &&
        (!products.length || products.includes(r.productId)) &&
        (!include.length || include.includes(r.id)) &&
        !exclude.includes(r.id) &&
        (!email || r.email.toLowerCase() === email) &&
        (!search || [r.author, r.email, r.content].some((t) => t.toLowerCase().includes(search))) &&
        (after === undefined || r.created > after) &&
        (before === undefined || r.created < before),
    );
    // WP_Comment_Query orders by the key, then by id, both in the order asked for.
    const orderby = asString(args.orderby) || 'date_gmt';
    const direction = asString(args.order) === 'asc' ? 1 : -1;
    if (orderby === 'include')
      return items.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
    const key = (r: Review) =>
      orderby === 'id' ? r.id : orderby === 'product' ? r.productId : r.created;
    return items.sort((a, b) => direction * (key(a) - key(b) || a.id - b.id));
  }
}
