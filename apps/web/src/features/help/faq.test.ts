import { describe, expect, it } from 'vitest';
import { faqItems, filterFaq, helpTopics, isHelpTopic } from './faq.ts';

describe('help centre FAQ', () => {
  it('has questions in every topic of the filter', () => {
    for (const topic of helpTopics.filter((t) => t.id !== 'all')) {
      expect(
        faqItems.filter((i) => i.category === topic.id).length,
        topic.id,
      ).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(faqItems.map((i) => i.question)).size).toBe(faqItems.length);
  });

  it('states the price example of the spec from the shared price rule', () => {
    const pricing = faqItems.find((i) => i.question === 'How much does a migration cost?');
    expect(pricing?.answer).toContain('$99.00 per migration plus $0.01 per record');
    expect(pricing?.answer).toContain('1,000 records cost $109.00');
  });

  it('names all four platforms and the spec’s durations', () => {
    const text = faqItems.map((i) => i.answer).join(' ');
    for (const name of ['Magento 2', 'Shopify', 'WooCommerce', 'BigCommerce'])
      expect(text).toContain(name);
    expect(text).toContain('under 1,000 products: 10–30 minutes');
    expect(text).toContain('over 10,000 products: 3–8 hours');
  });

  it('searches questions and answers case-insensitively, every word, within a topic', () => {
    expect(filterFaq(faqItems, '', 'all')).toHaveLength(faqItems.length);
    // In a question.
    expect(filterFaq(faqItems, 'PASSWORDS', 'all').map((i) => i.category)).toContain('data');
    // Only in an answer.
    const aes = filterFaq(faqItems, 'aes-256-gcm', 'all');
    expect(aes.map((i) => i.question)).toEqual(['How are my store credentials protected?']);
    expect(filterFaq(faqItems, 'aes-256-gcm', 'pricing')).toEqual([]);
    expect(filterFaq(faqItems, 'RANKINGS redirect', 'all').map((i) => i.category)).toEqual([
      'advanced',
    ]);
    expect(filterFaq(faqItems, 'no such words anywhere', 'all')).toEqual([]);
    expect(filterFaq(faqItems, '  ', 'security').every((i) => i.category === 'security')).toBe(
      true,
    );
  });

  it('recognises topic names from a link', () => {
    expect(isHelpTopic('pricing')).toBe(true);
    expect(isHelpTopic('all')).toBe(true);
    expect(isHelpTopic('Pricing')).toBe(false);
    expect(isHelpTopic(null)).toBe(false);
  });
});
