import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, Outlet, Route, Routes, useLocation } from 'react-router';
import { SiteHeader } from '../components/site-header.tsx';
import { TopBar } from '../components/top-bar.tsx';
import { MyAccountPage } from '../features/account/my-account-page.tsx';
import { AuthPage } from '../features/auth/auth-page.tsx';
import { ConfirmEmailPage } from '../features/auth/confirm-email-page.tsx';
import { BlogPostPage } from '../features/blog/blog-post-page.tsx';
import { BlogsPage } from '../features/blog/blogs-page.tsx';
import { ContactPage } from '../features/contact/contact-page.tsx';
import { HelpPage } from '../features/help/help-page.tsx';
import { HistoryPage } from '../features/history/history-page.tsx';
import { MigrationDetailPage } from '../features/history/migration-detail-page.tsx';
import { LandingPage } from '../features/landing/landing-page.tsx';
import { EnterprisePage } from '../features/marketing/enterprise-page.tsx';
import { MagentoToShopifyPage } from '../features/marketing/magento-to-shopify-page.tsx';
import { MigrationPage } from '../features/migrations/migration-page.tsx';
import { MigrationsPage } from '../features/migrations/migrations-page.tsx';
import { useSession } from '../features/session/api/get-session.ts';
import { applyMockQuery } from '../features/mock-mode/mock-mode.ts';
import { NotificationsPage } from '../features/notifications/notifications-page.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { RedirectIfSignedIn, RequireSignedIn } from './guards.tsx';
import { chromeFor } from './layout-rules.ts';
import { NotFoundPage } from './not-found-page.tsx';
import { titleFor } from './page-titles.ts';

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
      {chrome === 'top-bar' ? <TopBar /> : chrome === 'header' ? <SiteHeader /> : null}
      <Outlet />
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
