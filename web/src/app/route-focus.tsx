// What a screen reader meets after each navigation: the tab's title names the screen, and focus
// moves to the screen's heading (unless the screen put it somewhere itself, such as a form field),
// so a change of page is announced instead of leaving focus on a button that is gone. The first
// page load keeps the browser's own focus.
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

const BRAND = 'REME Wallet';

/** The screen's name for the tab's title, by path. */
export function screenTitle(pathname: string): string {
  if (pathname.startsWith('/operator')) return 'Operator console';
  if (pathname.startsWith('/r/') || pathname.startsWith('/signup')) return 'Create account';
  const titles: Record<string, string> = {
    '/': 'Sign in',
    '/register': 'Create your wallet',
    '/mnemonic': 'Your recovery phrase',
    '/recover-wallet': 'Recover your wallet',
    '/reset-password': 'Choose a new password',
    '/dashboard': 'Your wallet',
    '/claim': 'Claim REME',
    '/insufficient-balance': 'Add ETH for the fee',
    '/rcb': 'Your community',
    '/community-builder': 'Community builder',
    '/convert-caps': 'Convert CAPs',
    '/account': 'Account and security',
    '/recovery-phrase': 'Recovery phrase',
    '/rounds': 'Every distribution round',
  };
  return titles[pathname] ?? 'Page not found';
}

/** How long a lazily loaded screen may take to show its heading. */
const HEADING_WAIT_MS = 3_000;

export function RouteFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    document.title = `${screenTitle(pathname)} · ${BRAND}`;
    if (first.current) {
      first.current = false;
      return;
    }
    // The screen may still be loading: wait for its heading, then focus it unless the screen
    // focused something of its own meanwhile.
    const started = Date.now();
    let frame = 0;
    const tryFocus = () => {
      const active = document.activeElement;
      if (active && active !== document.body && document.contains(active)) return;
      const heading = document.querySelector<HTMLElement>('main h1, h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
        return;
      }
      if (Date.now() - started < HEADING_WAIT_MS) frame = requestAnimationFrame(tryFocus);
    };
    frame = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return null;
}
