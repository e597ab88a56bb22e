import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { blogPosts } from './posts.ts';
import { decodeEntities, parseHtml, safeHref, SafeHtml } from './safe-html.tsx';

const html = (source: string) => renderToStaticMarkup(<SafeHtml html={source} />);

describe('SafeHtml', () => {
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
    expect(html('<a href="javascript:alert(1)">x</a>')).toBe('<div><span>x</span></div>');
    expect(html('<a href="java\tscript:alert(1)">x</a>')).not.toContain('href');
    expect(html('<a href="//evil.example">x</a>')).not.toContain('href');
    expect(html('<a href="data:text/html,hi">x</a>')).not.toContain('href');
    expect(html('<a href="/signup" target="_top">x</a>')).toContain('href="/signup"');
    expect(html('<a href="/signup">x</a>')).not.toContain('target');
    const external = html('<a href="https://example.com/">x</a>');
    expect(external).toContain('target="_blank"');
    expect(external).toContain('rel="noopener noreferrer"');
  });

  it('unwraps unknown tags to their text and escapes text', () => {
    expect(html('<marquee>moving <b>bold</b></marquee>')).toBe(
      '<div>moving <b class="font-semibold text-slate-900">bold</b></div>',
    );
    expect(html('1 &lt; 2 &amp;&amp; <p>&quot;q&quot; &#x41;&#66; &rsquo; &bogus;</p>')).toBe(
      '<div>1 &lt; 2 &amp;&amp; <p class="mt-5 leading-7 text-slate-700">&quot;q&quot; AB ’ &amp;bogus;</p></div>',
    );
  });

  it('copes with unclosed, stray and self-closing tags and comments', () => {
    expect(parseHtml('<ul><li>one<li>two</ul></p><br/><!-- note --><hr>end')).toEqual([
      {
        kind: 'element',
        tag: 'ul',
        attrs: {},
        children: [
          {
            kind: 'element',
            tag: 'li',
            attrs: {},
            children: [
              { kind: 'text', text: 'one' },
              { kind: 'element', tag: 'li', attrs: {}, children: [{ kind: 'text', text: 'two' }] },
            ],
          },
        ],
      },
      { kind: 'element', tag: 'br', attrs: {}, children: [] },
      { kind: 'element', tag: 'hr', attrs: {}, children: [] },
      { kind: 'text', text: 'end' },
    ]);
    // An unterminated tag and everything after it is dropped.
    expect(html('<p>ok</p><a href="/x" onclick="x')).toBe(
      '<div><p class="mt-5 leading-7 text-slate-700">ok</p></div>',
    );
    expect(html('a < b')).toBe('<div>a &lt; b</div>');
  });

  it('decodes entities and refuses code points that are not characters', () => {
    expect(decodeEntities('&#0;&#xD800;&#x110000;&#65;')).toBe('\ufffd\ufffd\ufffdA');
    expect(safeHref('mailto:support@replatform.example')).toBe('mailto:support@replatform.example');
    expect(safeHref(undefined)).toBeUndefined();
  });

  it('renders every blog post without losing a paragraph', () => {
    for (const post of blogPosts) {
      const out = html(post.content);
      const paragraphs = post.content.match(/<p>/g)?.length ?? 0;
      expect(out.match(/<p class=/g)?.length, `post ${post.id}`).toBe(paragraphs);
      expect(out).not.toMatch(/&lt;/);
    }
  });
});
