import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Outlet, Route, Routes, useLocation } from 'react-router';
import { useSession } from '../features/session/api/get-session.ts';
import { applyMockQuery } from '../features/mock-mode/mock-mode.ts';
import { RedirectIfSignedIn, RequireSignedIn } from './guards.tsx';
import { chromeFor } from './layout-rules.ts';
import { titleFor } from './page-titles.ts';

/**
 * A page loaded when it is first shown: every feature is its own chunk, so the landing page,
 * blog and login load only their own code and the signed-in app the rest when needed. Pages
 * that read server data get the query cache, which comes with them; the landing page and the
 * blog read none and load none of it.
 */
function page<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
  { queries = true }: { queries?: boolean } = {},
): ComponentType {
  return lazy(async (): Promise<{ default: ComponentType }> => {
    if (!queries) return { default: (await load())[name] };
    const [module, { WithQueries }] = await Promise.all([load(), import('./queries.tsx')]);
    const Page: ComponentType = module[name];
    return {
      default: () => (
        <WithQueries>
          <Page />
        </WithQueries>
      ),
    };
  });
}

const LandingPage = page(() => import('../features/landing/landing-page.tsx'), 'LandingPage', {
  queries: false,
});
const AuthPage = page(() => import('../features/auth/auth-page.tsx'), 'AuthPage', {
  queries: false,
});
const BlogsPage = page(() => import('../features/blog/blogs-page.tsx'), 'BlogsPage', {
  queries: false,
});
const BlogPostPage = page(() => import('../features/blog/blog-post-page.tsx'), 'BlogPostPage', {
  queries: false,
});
const EnterprisePage = page(
  () => import('../features/marketing/enterprise-page.tsx'),
  'EnterprisePage',
);
const MagentoToShopifyPage = page(
  () => import('../features/marketing/magento-to-shopify-page.tsx'),
  'MagentoToShopifyPage',
  { queries: false },
);
const MigrationsPage = page(
  () => import('../features/migrations/migrations-page.tsx'),
  'MigrationsPage',
);
const MigrationPage = page(
  () => import('../features/migrations/migration-page.tsx'),
  'MigrationPage',
);
const HistoryPage = page(() => import('../features/history/history-page.tsx'), 'HistoryPage');
const MigrationDetailPage = page(
  () => import('../features/history/migration-detail-page.tsx'),
  'MigrationDetailPage',
);
const MyAccountPage = page(
  () => import('../features/account/my-account-page.tsx'),
  'MyAccountPage',
);
const HelpPage = page(() => import('../features/help/help-page.tsx'), 'HelpPage');
const ContactPage = page(() => import('../features/contact/contact-page.tsx'), 'ContactPage');
const SettingsPage = page(() => import('../features/settings/settings-page.tsx'), 'SettingsPage');
const NotificationsPage = page(
  () => import('../features/notifications/notifications-page.tsx'),
  'NotificationsPage',
);
const NotFoundPage = page(() => import('./not-found-page.tsx'), 'NotFoundPage', {
  queries: false,
});
const TopBar = page(() => import('../components/top-bar.tsx'), 'TopBar');
const SiteHeader = page(() => import('../components/site-header.tsx'), 'SiteHeader');
const ConfirmEmailPage = page(
  () => import('../features/auth/confirm-email-page.tsx'),
  'ConfirmEmailPage',
  { queries: false },
);

/** Chooses the top bar, the header or nothing by path and session (spec.md section 2, Layout). */
function Chrome() {
  const { pathname, search } = useLocation();
  const session = useSession();
  // ?mock=true|false also applies when the app navigates on its own (e.g. after demo sign-in).
  useEffect(() => applyMockQuery(search), [search]);
  useEffect(() => {
    const title = titleFor(pathname, search);
    if (title) document.title = title;
  }, [pathname, search]);
  const chrome = chromeFor(pathname, Boolean(session.data));
  return (
    <div className="flex min-h-screen flex-col">
      <Suspense fallback={null}>
        {chrome === 'top-bar' ? <TopBar /> : chrome === 'header' ? <SiteHeader /> : null}
      </Suspense>
      {/* While a page's code arrives, the space it will fill stays empty rather than flashing a spinner. */}
      <Suspense fallback={<main className="flex-1" aria-busy="true" />}>
        <Outlet />
      </Suspense>
    </div>
  );
}

const privatePage = (element: ReactNode) => <RequireSignedIn>{element}</RequireSignedIn>;

/** The route table of spec.md section 2, with decisions.md section 4's guard for /migrations/{id}. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<Chrome />}>
          <Route
            path="/"
            element={
              <RedirectIfSignedIn>
                <LandingPage />
              </RedirectIfSignedIn>
            }
          />
          <Route
            path="/login"
            element={
              <RedirectIfSignedIn>
                <AuthPage />
              </RedirectIfSignedIn>
            }
          />
          <Route
            path="/signup"
            element={
              <RedirectIfSignedIn>
                <AuthPage />
              </RedirectIfSignedIn>
            }
          />
          <Route path="/confirm-email" element={<ConfirmEmailPage />} />
          <Route path="/migrations" element={privatePage(<MigrationsPage />)} />
          <Route path="/migrations/:id" element={privatePage(<MigrationPage />)} />
          <Route path="/migration-history" element={privatePage(<HistoryPage />)} />
          <Route path="/migration-history/:id" element={privatePage(<MigrationDetailPage />)} />
          <Route path="/my-account" element={privatePage(<MyAccountPage />)} />
          <Route path="/help" element={privatePage(<HelpPage />)} />
          <Route path="/contact" element={privatePage(<ContactPage />)} />
          <Route path="/settings" element={privatePage(<SettingsPage />)} />
          <Route path="/notifications" element={privatePage(<NotificationsPage />)} />
          <Route path="/enterprise" element={<EnterprisePage />} />
          <Route path="/magento-to-shopify" element={<MagentoToShopifyPage />} />
          <Route path="/blogs" element={<BlogsPage />} />
          <Route path="/blog/:id" element={<BlogPostPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
