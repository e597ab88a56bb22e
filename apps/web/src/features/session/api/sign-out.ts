import { forgetReturnTo } from '../return-to.ts';

/**
 * Ends the server-side session (better-auth's sign-out endpoint), then loads the sign-in page
 * afresh so nothing of the previous user stays in memory (query cache, forms, other features).
 */
export async function signOut(): Promise<void> {
  try {
    await fetch('/api/auth/sign-out', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  } finally {
    forgetReturnTo();
    window.location.assign('/login');
  }
}
