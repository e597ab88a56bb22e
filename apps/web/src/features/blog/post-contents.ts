/**
 * The articles' bodies, HTML shown through PostBody (sanitised by DOMPurify). Apart from the
 * posts' other fields so that the blog's list and a post's header load without them.
 */
export const postContents: Record<number, string> = {
  1: `
<p>Most migrations that go wrong do so before they start: a forgotten store view, a customer list full of test accounts, an order status nobody mapped. These seven checks take an afternoon and make the rest predictable.</p>
<h2>1. Know what you are moving</h2>
<p>Count your products, customers and orders. Connect your source store in Replatform and the <strong>Select Data</strong> step shows the counts read from the store itself, so you know the exact price before you pay: $99 plus $0.01 per record.</p>
<h2>2. Tidy the catalogue first</h2>
<p>Delete discontinued products and test orders in the old store rather than moving them. Every record you leave behind is one less to check afterwards.</p>
<h2>3. Check your variants and options</h2>
<p>Configurable products, variable products and products with options become variants on the other side. Some platforms limit how many options a product may have; our report names every product that did not fit, with the reason.</p>
<h2>4. Decide what happens to customer passwords</h2>
<p>No platform lets another read its password hashes, so customers set a new password on the new store. Plan the e-mail that tells them, and send it after the switch.</p>
<h2>5. Map your order statuses</h2>
<p>“Processing”, “complete” and “shipped” mean slightly different things on each platform. Orders are imported with a mapped status and without notifying your customers, so nobody receives a second confirmation for an old order.</p>
<h2>6. Do a trial run</h2>
<p>Try the whole flow in demo mode against our sandbox stores, then migrate into a development store of your new platform. It costs the same as a real run and shows you exactly how your data lands.</p>
<h2>7. Plan the cut-over</h2>
<p>Your old store keeps selling while we copy: we only read from it. When you are ready, run the migration again to bring over what changed since the first run. Records already moved are recognised, so nothing is duplicated.</p>
<blockquote>The best migration is a boring one. Checks like these are how you make it boring.</blockquote>
`,
  2: `
<p>“Zero downtime” is not magic. It comes from one simple fact: a migration only <em>reads</em> from your old store. Customers keep browsing and buying there until the moment you point your domain at the new one.</p>
<h2>The week before</h2>
<ul>
<li>Run the full migration into the new store and review the verification result on the migration’s history page.</li>
<li>Download the report and look at anything marked skipped or failed. Every record has a reason.</li>
<li>Set up payments, shipping rates and taxes on the new platform: those are settings, not data we move.</li>
</ul>
<h2>On the day</h2>
<ol>
<li>Run the migration again. Only records that are new or changed since the last run are written; the rest are recognised and left alone.</li>
<li>Check the latest orders arrived, with their line items and totals.</li>
<li>Switch your domain to the new store.</li>
</ol>
<h2>The hour after</h2>
<p>Place a test order, search for a handful of old product URLs to check their redirects, and send your customers the note about choosing a new password. If anything looks wrong, our support team answers within 2 hours, and failures are resolved within 24 hours.</p>
`,
  3: `
<p>Magento 2 and Shopify describe a store in different shapes. Knowing the differences up front tells you what your new catalogue will look like before you move it.</p>
<h2>Products and variants</h2>
<p>A Magento configurable product with its simple children becomes one Shopify product with variants. Options such as size and colour carry across with their values. Magento’s product-level SKU and short description have no place on a Shopify product, so the report lists them as fields the destination cannot hold.</p>
<h2>Categories become collections</h2>
<p>Magento categories form a tree; Shopify collections are flat. Each category becomes a collection with the same products, and its URL key becomes the collection’s handle.</p>
<h2>URLs and redirects</h2>
<p>Shopify paths always start with <code>/products/</code> or <code>/collections/</code>. We create a URL redirect from each old Magento path to its new home, so links and search results keep working.</p>
<h2>Customers</h2>
<p>Names, e-mail addresses, phone numbers and addresses move across. Shopify keeps one default address for billing and shipping. Passwords cannot be moved between platforms, so customers choose a new one the first time they sign in.</p>
<h2>Orders</h2>
<p>Orders arrive with their line items, totals and a mapped status, and they are imported without sending any notification to your customers.</p>
<p>Read more in our <a href="/magento-to-shopify">Magento to Shopify</a> overview.</p>
`,
  4: `
<p>WooCommerce and BigCommerce are both popular next homes for stores leaving an older platform. They suit different teams.</p>
<h2>WooCommerce</h2>
<p>WooCommerce runs inside WordPress on hosting you choose. You control every plugin and every line of code, and you are responsible for updates, security and performance. It suits teams with a developer, or stores whose content matters as much as their catalogue.</p>
<h2>BigCommerce</h2>
<p>BigCommerce is hosted: the platform handles updates, security and scaling. Its catalogue supports products with variants and options, nested categories and custom storefront URLs out of the box.</p>
<h2>What moves, either way</h2>
<ul>
<li>Products with images, variants, options, prices and categories</li>
<li>Customers with their addresses</li>
<li>Orders with line items, totals and statuses</li>
</ul>
<p>To connect WooCommerce you create a REST API key (consumer key and secret); for BigCommerce, an API account gives you a store hash and an access token. Both are verified before anything is read, and both are stored encrypted.</p>
<h2>Our advice</h2>
<p>Pick the platform your team can run for the next five years, not the one with the longest feature list. Whichever you choose, you can move again later: every pair of our four platforms works in both directions.</p>
`,
  5: `
<p>A platform is not a lifetime decision. The merchants we talk to move for a handful of recurring reasons.</p>
<h2>The platform aged out</h2>
<p>Magento 1 reached its end of life in June 2020, and many stores that upgraded to Magento 2 now weigh the cost of keeping it patched and fast against a hosted platform.</p>
<h2>Total cost, not licence cost</h2>
<p>Hosting, extensions, developer hours and security updates add up. Stores increasingly compare the full yearly cost of running each platform, not just its subscription price.</p>
<h2>Selling in more places</h2>
<p>Marketplaces, social channels and point-of-sale systems all want a clean product feed. Platforms with strong integrations make that easier.</p>
<h2>Moving is less risky than it was</h2>
<p>A migration used to mean weeks of spreadsheets. With a verified, resumable migration, every record is accounted for: migrated, skipped or failed with a reason, and checked against the source afterwards.</p>
<p>If you are weighing a move, <a href="/signup">create an account</a> and connect your store: the count and the price are free to see.</p>
`,
  6: `
<p>Search engines have spent years learning your URLs. A migration should hand that knowledge over, not throw it away. This guide walks through it in order.</p>
<h2>Step 1: list your important pages</h2>
<p>Export your top landing pages from your analytics or Search Console before you start. These are the pages to check by hand after the switch.</p>
<h2>Step 2: keep URL keys</h2>
<p>Each product’s and category’s URL key (its slug) is carried across. Where the destination needs a different path, the old path is kept in a redirect map.</p>
<h2>Step 3: redirect every old URL</h2>
<p>Old paths must answer with a <strong>301 redirect</strong> to their new home. The migration’s page offers the redirect map as a list and as ready-to-paste nginx and Apache rules: set them up on your old domain, or in your new platform’s redirect settings, before you switch your domain.</p>
<h2>Step 4: carry metadata over</h2>
<p>Page titles and meta descriptions move with each product where the destination has a place for them. Spot-check a few in the new store’s admin.</p>
<h2>Step 5: after the switch</h2>
<ol>
<li>Submit the new sitemap in Search Console.</li>
<li>Open your top pages from step 1 by their old URLs and check they redirect once, not in a chain.</li>
<li>Watch crawl errors for two weeks and fix any path that slipped through.</li>
</ol>
<blockquote>Redirects are the single most important SEO task of a migration. Everything else is fine-tuning.</blockquote>
`,
};
