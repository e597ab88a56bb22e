import { useLocation } from 'react-router';
import { Page } from '../../components/page.tsx';

export function AuthPage() {
  const { pathname } = useLocation();
  return <Page title={pathname === '/signup' ? 'Create Account' : 'Welcome Back'} />;
}
