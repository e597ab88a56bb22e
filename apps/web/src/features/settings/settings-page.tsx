import { Page } from '../../components/page.tsx';

export function SettingsPage() {
  return <Page title="Settings" />;
}
