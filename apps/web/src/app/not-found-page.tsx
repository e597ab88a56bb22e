import { Link } from 'react-router';
import { Page } from '../components/page.tsx';
import { MarketingHeader } from '../features/marketing/marketing-header.tsx';
import { useSession } from '../features/session/api/get-session.ts';

/**
 * Any unknown address. Signed in, the app's own header is already above it; signed out, the
 * public header is, so the visitor is never left without a way on.
 */
export function NotFoundPage() {
  const session = useSession();
  const signedOut = !session.isPending && !session.data;
  return (
    <>
      {signedOut ? <MarketingHeader /> : null}
      <Page title="Page not found" intro="The page you asked for does not exist.">
        <Link to="/" className="text-indigo-700 underline">
          Go to the home page
        </Link>
      </Page>
    </>
  );
}
