/**
 * Opens a page in a new tab whose address is only known after a request (a receipt). Browsers
 * block window.open once the click's task has ended, so the tab is opened blank at the click and
 * sent on when the address arrives; it is closed again if the request fails.
 */
export async function openInNewTab(load: () => Promise<string>): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  let url: string;
  try {
    url = await load();
  } catch (error) {
    tab?.close();
    throw error;
  }
  if (tab && !tab.closed) {
    // The receipt's page must not be able to script or redirect ours.
    tab.opener = null;
    tab.location.href = url;
  } else {
    window.open(url, '_blank', 'noopener');
  }
}
