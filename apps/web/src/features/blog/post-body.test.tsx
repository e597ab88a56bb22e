// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizePostHtml as html } from './post-body.tsx';
import { postContents } from './post-contents.ts';
import { blogPosts } from './posts.ts';

describe('post bodies', () => {
  it('keeps allowed tags with our classes and drops their attributes', () => {
    const out = html(
      '<h2 id="x" style="color:red">Title</h2><p class="evil" onclick="steal()">Hi <strong>there</strong></p>',
    );
    expect(out).toContain('<h2 class="mt-10');
    expect(out).toContain('>Title</h2>');
    expect(out).toContain('Hi <strong class="font-semibold text-slate-900">there</strong></p>');
    expect(out).not.toMatch(/onclick|style=|evil|id="x"/);
  });

  it('drops scripts, styles, frames and images with their content', () => {
    const out = html(
      '<p>a</p><script>alert(1)</script><style>p{}</style><iframe src="//x"></iframe><img src=x onerror=alert(1)><svg><script>alert(2)</script></svg><p>b</p>',
    );
    expect(out).not.toMatch(/alert|script|style|iframe|img|svg|onerror/i);
    expect(out).toContain('>a</p>');
    expect(out).toContain('>b</p>');
  });

  it('does not let a script end early on a closing tag inside a string', () => {
    const out = html('<script>var s = "<p>not markup</p>";</script><p>after</p>');
    expect(out).not.toContain('not markup');
    expect(out).toContain('after');
  });

  it('keeps only safe link targets and opens other sites in a new tab', () => {
    for (const bad of [
      'javascript:alert(1)',
      'java\tscript:alert(1)',
      '//evil.example',
      'data:text/html,hi',
      'vbscript:x',
    ]) {
      expect(html(`<a href="${bad}">x</a>`), bad).not.toContain('href');
    }
    expect(html('<a href="/signup" target="_top">x</a>')).toContain('href="/signup"');
    expect(html('<a href="/signup">x</a>')).not.toContain('target');
    expect(html('<a href="mailto:support@replatform.example">x</a>')).toContain('href="mailto:');
    const external = html('<a href="https://example.com/">x</a>');
    expect(external).toContain('target="_blank"');
    expect(external).toContain('rel="noopener noreferrer"');
  });

  it('unwraps unknown tags to their text and escapes text', () => {
    expect(html('<marquee>moving <b>bold</b></marquee>')).toBe(
      'moving <b class="font-semibold text-slate-900">bold</b>',
    );
    expect(html('1 &lt; 2 &amp;&amp; <p>&quot;q&quot; &#x41;&#66; &rsquo;</p>')).toBe(
      '1 &lt; 2 &amp;&amp; <p class="mt-5 leading-7 text-slate-700">"q" AB ’</p>',
    );
  });

  it('renders every blog post without losing a paragraph', () => {
    for (const post of blogPosts) {
      const content = postContents[post.id] ?? '';
      const out = html(content);
      const paragraphs = content.match(/<p>/g)?.length ?? 0;
      expect(out.match(/<p class=/g)?.length, `post ${post.id}`).toBe(paragraphs);
    }
  });
});
