import { describe, expect, it } from 'vitest';
import { reviewSchema as canonicalReview, type Review } from '@replatform/canonical/review';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { generateSampleStore } from '@replatform/emulators/framework/sample-store';
import { inDestinationForm, knownDifferences, undeclaredFields } from '../kit/fields.ts';
import { nativeLosses } from './losses.ts';
import {
  hasFormatting,
  headline,
  htmlToText,
  naturalKey,
  reviewToBc,
  reviewToCanonical,
  sameReview,
  textToHtml,
  type BcReviewBody,
} from './map-review.ts';
import { bigCommerceDestinationFields, bigCommerceNativeFields } from './native-fields.ts';
import { reviewSchema } from './payloads.ts';

const spec = new BigCommerceSpec();
const reviewsPath = 'https://api.bigcommerce.com/stores/abc123/v3/catalog/products/12/reviews';

/** Checks a body against products_catalog.v3.yml, as the real API would see it. */
const specProblems = (method: 'POST' | 'PUT', body: unknown) =>
  spec.validateRequest({
    method,
    url: method === 'POST' ? reviewsPath : `${reviewsPath}/3`,
    headers: {
      'X-Auth-Token': 't',
      Accept: 'application/json',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });

/** A review as GET .../reviews answers it. */
const native = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 31,
  product_id: 12,
  title: 'Does the job',
  text: 'Sturdy & light.\nFits in a backpack.\n\nWould buy <again>.',
  status: 'approved',
  rating: 4,
  email: 'Sam@Example.com',
  name: 'Sam O.',
  date_reviewed: '2023-08-21T07:05:00+00:00',
  date_created: '2023-08-21T07:06:10+00:00',
  date_modified: '2023-08-22T09:00:00+00:00',
  ...over,
});

const read = (raw: Record<string, unknown>): Review => {
  const review = reviewToCanonical(reviewSchema.parse(raw), Number(raw.product_id));
  expect(canonicalReview.safeParse(review).error).toBeUndefined();
  return review;
};

const review = (over: Partial<Review> = {}): Review => ({
  id: '5',
  productId: '12',
  reviewerName: 'Priya Raman',
  reviewerEmail: 'priya.raman@example.com',
  rating: 1,
  title: 'Arrived broken',
  body: '<p>The box was crushed.</p>',
  status: 'approved',
  verified: false,
  createdAt: '2024-02-14T12:00:00.000Z',
  ...over,
});

const written = (r: Review): BcReviewBody => {
  const result = reviewToBc(r);
  if (!result.ok) throw new Error(result.reason);
  return result.body;
};

describe('BigCommerce reviews read', () => {
  it('reads a review, its plain text as HTML paragraphs', () => {
    expect(read(native())).toEqual({
      id: '31',
      productId: '12',
      reviewerName: 'Sam O.',
      reviewerEmail: 'Sam@Example.com',
      rating: 4,
      title: 'Does the job',
      body: '<p>Sturdy &amp; light.<br>Fits in a backpack.</p><p>Would buy &lt;again&gt;.</p>',
      status: 'approved',
      verified: false,
      createdAt: '2023-08-21T07:05:00.000Z',
    });
    expect(read(native({ status: 'disapproved' })).status).toBe('rejected');
    expect(read(native({ status: 'pending', email: '', text: '' }))).toMatchObject({
      status: 'pending',
      reviewerEmail: '',
      body: '',
    });
  });

  it('declares every field of the answer, and loses none of them', () => {
    const record = native();
    // The answer's schema is what the description declares (the emulator's tests check it too).
    expect(
      spec.validateResponse('GET', reviewsPath, {
        status: 200,
        body: {
          data: [record],
          meta: {
            pagination: { total: 1, count: 1, per_page: 50, current_page: 1, total_pages: 1 },
          },
        },
      }),
    ).toEqual([]);
    expect(undeclaredFields(record, bigCommerceNativeFields.reviews ?? {})).toEqual([]);
    expect(nativeLosses(record, bigCommerceNativeFields.reviews ?? {})).toEqual([]);
  });

  it('reads a review of 0 stars as one given without stars', () => {
    expect(read(native({ rating: 0 })).rating).toBeNull();
    expect(read(native({ rating: 4 })).rating).toBe(4);
  });

  it('does not read what the model has no place for: no name, an unknown state', () => {
    const refused = (over: Record<string, unknown>) => () => read(native(over));
    expect(refused({ name: '' })).toThrow(/has no reviewer name, which the model requires/);
    expect(refused({ status: 'archived' })).toThrow(/a status the model does not know: archived/);
  });
});

describe('BigCommerce reviews written', () => {
  it('writes bodies the description takes, for POST and for PUT (which takes them whole)', () => {
    const sample = generateSampleStore({ seed: 3, products: 5, customers: 4, orders: 6 });
    for (const r of sample.reviews) {
      const body = written(
        review({
          id: r.key,
          reviewerName: r.reviewerName,
          reviewerEmail: r.reviewerEmail,
          rating: r.rating,
          title: r.title,
          body: r.body,
          status: r.status,
          verified: r.verified,
          createdAt: r.createdAt,
        }),
      );
      expect(specProblems('POST', body), r.key).toEqual([]);
      expect(specProblems('PUT', body), r.key).toEqual([]);
      expect(body.title.trim(), r.key).not.toBe('');
    }
  });

  it('maps the moderation states, naming spam', () => {
    const states = (['approved', 'pending', 'rejected', 'spam'] as const).map((status) => {
      const result = reviewToBc(review({ status }));
      return result.ok ? [result.body.status, result.warnings] : [];
    });
    expect(states).toEqual([
      ['approved', []],
      ['pending', []],
      ['disapproved', []],
      [
        'disapproved',
        [
          'the review was marked as spam, a state BigCommerce does not have: it was written as disapproved (status)',
        ],
      ],
    ]);
  });

  it('gives a review without a title the first sentence of its text, or its stars', () => {
    const result = reviewToBc(
      review({ title: '  ', body: '<p>Très bien. Shipping took a week.</p><p>Again!</p>' }),
    );
    expect(result).toMatchObject({
      ok: true,
      body: { title: 'Très bien.', text: 'Très bien. Shipping took a week.\n\nAgain!' },
      warnings: [
        "the review had no title, which BigCommerce requires: the first sentence of its text, 'Très bien.', was written as its title (title)",
      ],
    });
    expect(written(review({ title: '', body: '', rating: 4 })).title).toBe('★★★★☆');
  });

  it('shortens a title or a name longer than BigCommerce holds, and says so', () => {
    const long = 'Ω'.repeat(300);
    const result = reviewToBc(review({ title: long, reviewerName: `${'N'.repeat(254)} 🙂🙂` }));
    expect(result.ok && [...result.body.title].length).toBe(255);
    expect(result.ok && result.body.name).toBe(`${'N'.repeat(254)}`);
    expect(result.ok && result.warnings).toEqual([
      'the title was shortened to 255 characters, the most a BigCommerce review title holds (title)',
      "the reviewer's name was shortened to 255 characters, the most BigCommerce holds (reviewerName)",
    ]);
  });

  it('leaves out an empty e-mail and refuses one that is no address', () => {
    expect(written(review({ reviewerEmail: '' }))).not.toHaveProperty('email');
    expect(reviewToBc(review({ reviewerEmail: 'priya at example' }))).toEqual({
      ok: false,
      reason:
        "BigCommerce takes a reviewer's e-mail only when it is an address, and 'priya at example' is not one (reviewerEmail)",
    });
  });

  it('keeps the text of the HTML and names the formatting it loses', () => {
    const result = reviewToBc(
      review({
        body: '<p>See <a href="https://example.com">the <strong>manual</strong></a>:</p><ul><li>one</li><li>two &amp; three</li></ul>',
      }),
    );
    expect(result).toMatchObject({
      ok: true,
      body: { text: 'See the manual:\n\none\ntwo & three' },
      warnings: [
        "the text's formatting (bold, links, lists) was not kept: BigCommerce keeps a review's text as plain text (body)",
      ],
    });
    expect(hasFormatting('<p>a<br/>b</p>\n<P>c</P>')).toBe(false);
  });

  it('leaves the buyer flag to the run, which names it from the declaration', () => {
    const fields = bigCommerceDestinationFields.reviews ?? {};
    expect(knownDifferences('reviews', review({ verified: true }), fields)).toEqual([
      { field: 'verified', reason: fields.unsupported?.verified },
    ]);
    expect(knownDifferences('reviews', review(), fields)).toEqual([]);
    expect(reviewToBc(review({ verified: true }))).toMatchObject({ ok: true, warnings: [] });
  });
});

describe('BigCommerce review text', () => {
  const cases = [
    '<p>Fits well and the colour is <strong>exactly</strong> as in the photos.</p>',
    '<p>Très bien. Shipping took a week, though.</p>\n<p>Would buy again.</p>',
    '<p>Second one for my brother &amp; he loves it too.</p>',
    'Plain words,   spaced\n out',
    '<div>one<br>two<br/>three</div><p>&nbsp;</p><p>a&#x2019;b &#8212; c&nbsp;d</p>',
    '<ol><li>first</li><li>second</li></ol><!-- note --><p>Tom &lt;3 &quot;it&quot;</p>',
    '',
  ];

  it('turns HTML into text that survives being written and read again', () => {
    expect(htmlToText(cases[1] ?? '')).toBe(
      'Très bien. Shipping took a week, though.\n\nWould buy again.',
    );
    expect(htmlToText(cases[4] ?? '')).toBe(
      'one\ntwo\nthree\n\n\u00a0\n\na\u2019b \u2014 c\u00a0d',
    );
    for (const html of cases) {
      const text = htmlToText(html);
      expect(htmlToText(textToHtml(text)), html).toBe(text);
    }
  });

  it('reads plain text back as it was written', () => {
    for (const text of [
      'Sturdy & light.\nFits in a backpack.\n\nWould buy <again>.',
      'One line',
      'a\n\nb\n\nc',
      '',
    ])
      expect(htmlToText(textToHtml(text)), text).toBe(text);
  });

  it('takes the first sentence of the first line as a headline, at most 80 characters', () => {
    expect(headline('Smaller than I expected.', 2)).toBe('Smaller than I expected.');
    expect(headline('\nGreat value! Would buy again.', 5)).toBe('Great value!');
    expect(headline('Rated 4.5 by my wife. Really.', 5)).toBe('Rated 4.5 by my wife.');
    const long = `${'word '.repeat(30)}end.`;
    expect(headline(long, 3)).toBe('word '.repeat(16).trimEnd());
    expect([...headline('🙂'.repeat(100), 3)]).toHaveLength(80);
    expect(headline('', 2)).toBe('★★☆☆☆');
  });
});

describe('BigCommerce reviews compared', () => {
  const base = written(review());

  it('knows a review by its reviewer, second and text, in any case', () => {
    const key = naturalKey(base);
    expect(
      naturalKey({
        ...base,
        name: 'PRIYA RAMAN',
        email: 'Priya.Raman@Example.com',
        date_reviewed: '2024-02-14T12:00:00.900+00:00',
        text: ' The box  was crushed. ',
        title: 'Another title',
        status: 'pending',
      }),
    ).toBe(key);
    expect(naturalKey({ ...base, text: 'The box was fine.' })).not.toBe(key);
    expect(naturalKey({ ...base, date_reviewed: '2024-02-14T12:00:01Z' })).not.toBe(key);
    expect(naturalKey({ ...base, email: undefined })).not.toBe(key);
    // Without text, the title tells reviews apart.
    expect(naturalKey({ ...base, text: '', title: 'A' })).not.toBe(
      naturalKey({ ...base, text: '', title: 'B' }),
    );
  });

  it('tells an unchanged copy from a changed one', () => {
    const copy = {
      ...base,
      email: base.email?.toUpperCase(),
      date_reviewed: '2024-02-14T12:00:00+00:00',
    };
    expect(sameReview(copy, base)).toBe(true);
    for (const change of [{ rating: 2 }, { status: 'pending' }, { title: 'x' }, { text: 'x' }])
      expect(sameReview({ ...copy, ...change }, base), JSON.stringify(change)).toBe(false);
  });

  it('compares a written review in the form BigCommerce keeps it', () => {
    const fields = bigCommerceDestinationFields.reviews ?? {};
    const source = review({
      title: '',
      body: '<p>Great <em>value</em>. Again.</p>',
      createdAt: '2024-02-14T12:00:00.250Z',
    });
    const copy = read(
      native({
        title: written(source).title,
        text: written(source).text,
        rating: source.rating,
        date_reviewed: '2024-02-14T12:00:00+00:00',
      }),
    );
    const form = (r: Review) =>
      inDestinationForm(
        { title: r.title, body: r.body, createdAt: r.createdAt, rating: r.rating },
        fields,
      );
    expect(form(copy)).toEqual(form(source));
    // A title the source had stays itself, and a shortened one differs.
    expect(form({ ...source, title: 'Kept' }).title).toBe('Kept');
    const long = review({ title: 'T'.repeat(300) });
    expect(form(long).title).not.toBe(written(long).title);
  });
});
