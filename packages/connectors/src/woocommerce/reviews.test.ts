import { describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { knownDifferences } from '../kit/fields.ts';
import { reviewTextKept } from './comparable.ts';
import { keptOnUpdate, reviewTextForm, storedEmail, storedReviewerName } from './comment-text.ts';
import { reviewBody } from './from-canonical.ts';
import { destinationFields } from './native-fields.ts';
import { review } from './test-records.ts';
import { reviewToCanonical } from './to-canonical.ts';
import { wcReviewSchema } from './wc-schemas.ts';

/** Product reviews between WooCommerce's answers and bodies and the canonical model. */

const answer = (fields: Record<string, unknown>) =>
  wcReviewSchema.parse({
    id: 31,
    date_created: '2023-04-12T10:15:00',
    date_created_gmt: '2023-04-12T10:15:00',
    product_id: 11,
    product_name: 'Becher',
    product_permalink: 'https://shop.example/product/becher/',
    status: 'approved',
    reviewer: 'Maya Lindqvist',
    reviewer_email: 'Maya@Example.com',
    review: '<p>Fits well.</p>',
    rating: 5,
    verified: false,
    reviewer_avatar_urls: {},
    ...fields,
  });

const ok = <T>(result: { ok: true; record: T } | { ok: false; reason: string }): T => {
  if (!result.ok) throw new Error(result.reason);
  return result.record;
};

describe('WooCommerce reviews to canonical', () => {
  it('reads a review with its product, reviewer, stars, text, date and verified flag; no headline', () => {
    expect(ok(reviewToCanonical(answer({ verified: true })))).toEqual({
      id: '31',
      productId: '11',
      reviewerName: 'Maya Lindqvist',
      reviewerEmail: 'Maya@Example.com',
      rating: 5,
      title: '',
      body: '<p>Fits well.</p>',
      status: 'approved',
      verified: true,
      createdAt: '2023-04-12T10:15:00.000Z',
    });
  });

  it('reads held as pending, the bin as rejected, spam as spam, and undoes the name’s escaping', () => {
    const statuses = ['approved', 'hold', 'trash', 'spam'].map(
      (status) => ok(reviewToCanonical(answer({ status }))).status,
    );
    expect(statuses).toEqual(['approved', 'pending', 'rejected', 'spam']);
    expect(ok(reviewToCanonical(answer({ reviewer: 'Tom &amp; Jerry' }))).reviewerName).toBe(
      'Tom & Jerry',
    );
    expect(ok(reviewToCanonical(answer({ reviewer_email: '' }))).reviewerEmail).toBe('');
  });

  it('reads a review without stars (0) as having no rating, and writes it back with 0', () => {
    expect(ok(reviewToCanonical(answer({ rating: 0 }))).rating).toBeNull();
    expect(reviewBody(review('r1', 'p1', { rating: null }), 101)).toMatchObject({
      ok: true,
      body: { rating: 0 },
    });
  });

  it('refuses, with the reason, a review with more than five stars, without a name or a known status', () => {
    const reason = (fields: Record<string, unknown>) => {
      const result = reviewToCanonical(answer(fields));
      return result.ok ? '' : result.reason;
    };
    expect(reason({ rating: -1 })).toMatch(/rating of -1/);
    expect(reason({ rating: 6 })).toMatch(/rating of 6/);
    expect(reason({ reviewer: '' })).toMatch(/no reviewer name/);
    expect(reason({ status: 'post-trashed' })).toMatch(/status WooCommerce does not list/);
  });
});

describe('WooCommerce reviews from canonical', () => {
  it('writes the product’s destination copy, the reviewer, text, stars, status and date to the second', () => {
    const written = reviewBody(
      review('r1', 'p1', { createdAt: '2023-04-12T10:15:00.789Z', verified: true }),
      101,
    );
    expect(written).toEqual({
      ok: true,
      body: {
        product_id: 101,
        reviewer: 'Reviewer r1',
        reviewer_email: 'reviewer-r1@example.com',
        review: '<p>Review r1: does what it says.</p>',
        rating: 4,
        status: 'approved',
        date_created_gmt: '2023-04-12T10:15:00',
        verified: true,
      },
      warnings: [],
    });
    // Only a verified review carries the flag: WooCommerce cannot be told false.
    const plain = reviewBody(review('r2', 'p1'), 101);
    expect(plain.ok && 'verified' in plain.body).toBe(false);
  });

  it('keeps pending as held, rejected in the bin (with a warning) and spam as spam', () => {
    const statusOf = (status: 'approved' | 'pending' | 'rejected' | 'spam') => {
      const written = reviewBody(review('r', 'p', { status }), 1);
      return written.ok ? [written.body.status, written.warnings] : [];
    };
    expect(statusOf('pending')).toEqual(['hold', []]);
    expect(statusOf('spam')).toEqual(['spam', []]);
    const [status, warnings] = statusOf('rejected');
    expect(status).toBe('trash');
    expect(String(warnings)).toMatch(/bin .* empties 30 days after/);
  });

  it('sends an empty address for a guest, and none for an address WordPress would not keep, saying so', () => {
    const guest = reviewBody(review('g', 'p', { reviewerEmail: '' }), 1);
    expect(guest.ok && guest.body.reviewer_email).toBe('');
    const bad = reviewBody(review('b', 'p', { reviewerEmail: 'zoë@example' }), 1);
    expect(bad.ok && bad.body.reviewer_email).toBe('');
    expect(bad.ok && bad.warnings).toEqual([
      "WordPress keeps only e-mail addresses it accepts: the reviewer email 'zoë@example' is not one, so the review was written without it.",
    ]);
  });

  it('says when WordPress will keep the name otherwise, and refuses a name that is only markup', () => {
    const spaced = reviewBody(review('n', 'p', { reviewerName: 'Ana\n <b>Lima</b>' }), 1);
    expect(spaced.ok && spaced.warnings).toEqual([
      "WordPress keeps a reviewer name as plain text on one line: 'Ana\n <b>Lima</b>' is kept as 'Ana Lima'.",
    ]);
    const markup = reviewBody(review('m', 'p', { reviewerName: '<img src=x>' }), 1);
    expect(markup).toMatchObject({ ok: false, reason: expect.stringMatching(/nothing is left/) });
  });

  it('refuses a review without text, as WooCommerce would, and never puts the headline in its place', () => {
    expect(reviewBody(review('e', 'p', { body: '', title: 'Great' }), 1)).toEqual({
      ok: false,
      reason:
        'WooCommerce refuses a review without text, and the review has none (only its stars and headline).',
    });
    expect(reviewBody(review('z', 'p', { body: '0' }), 1)).toMatchObject({ ok: false });
    const titled = reviewBody(review('t', 'p', { title: 'Great mug' }), 1);
    expect(titled.ok && titled.body.review).toBe('<p>Review t: does what it says.</p>');
  });

  it('sends bodies the wc/v3 index accepts (with the fields a real store reads beyond it)', () => {
    const bodies = [
      review('a', 'p', { verified: true, status: 'rejected' }),
      review('b', 'p', { reviewerEmail: '' }),
    ].map((r) => {
      const written = reviewBody(r, 7);
      if (!written.ok) throw new Error(written.reason);
      return written.body;
    });
    expect(
      checkRequest({
        method: 'POST',
        url: 'http://127.0.0.1:1/wp-json/wc/v3/products/reviews/batch',
        body: JSON.stringify({ create: bodies, update: [{ id: 3, status: 'hold', rating: 2 }] }),
      }),
    ).toEqual([]);
  });

  it('declares the headline unsupported, so a review that had one reports it', () => {
    const fields = destinationFields.reviews ?? {};
    expect(
      knownDifferences('reviews', review('h', 'p', { title: 'Great mug' }), fields).map(
        (d) => d.field,
      ),
    ).toEqual(['title']);
    expect(knownDifferences('reviews', review('n', 'p'), fields)).toEqual([]);
  });
});

describe('WordPress’s handling of a review’s text, name and address', () => {
  it('adds rel "nofollow ugc" to links, merged into their own rel, once', () => {
    const text =
      '<p>See <a href="https://a.example/">a</a> and <a href=\'https://b.example/\' rel="noopener">b</a></p>';
    const saved = reviewTextForm(text);
    expect(saved).toBe(
      '<p>See <a href="https://a.example/" rel="nofollow ugc">a</a> and <a href="https://b.example/" rel="noopener nofollow ugc">b</a></p>',
    );
    expect(reviewTextForm(saved)).toBe(saved);
    expect(reviewTextKept(text)).toBe(reviewTextKept(saved));
    expect(reviewTextKept('<p>plain</p>')).toBe('<p>plain</p>');
  });

  it('knows which texts an update keeps: plain text only', () => {
    expect(keptOnUpdate('Good mug.\n\nWould buy again!')).toBe(true);
    expect(keptOnUpdate('<p>Good</p>')).toBe(false);
    expect(keptOnUpdate('Salt & pepper')).toBe(false);
  });

  it('keeps names as plain text on one line and addresses it accepts', () => {
    expect(storedReviewerName('  Tom & <b>Jerry</b>\n x ')).toBe('Tom & Jerry x');
    expect(storedReviewerName('100%20sure')).toBe('100sure');
    expect(storedEmail(' Tom@Example.COM ')).toBe('Tom@Example.COM');
    expect(storedEmail('not-an-address')).toBe('');
    expect(storedEmail('zoë@example.com')).toBe('zo@example.com');
    expect(storedEmail('a@localhost')).toBe('');
  });
});
