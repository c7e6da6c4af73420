// What the start page says after a confirmation link. better-auth sends a link it cannot
// use back to its callback (/?confirmed=true) with `error=<its code>`; a link used before, or one
// opened in another browser, lands without a session to open. Either way the member is told what
// happened and what to do next, not shown a blank sign-in card.
export type LinkNotice = { error: string; resend: true } | { success: string; resend: false };

export function confirmationLinkNotice(search: string): LinkNotice | null {
  const params = new URLSearchParams(search);
  if (params.get('confirmed') !== 'true') return null;
  const error = params.get('error');
  if (error === 'TOKEN_EXPIRED') {
    return {
      error:
        'This confirmation link has expired (links work for 24 hours). Enter your e-mail address and press Resend confirmation e-mail for a new one.',
      resend: true,
    };
  }
  if (error) {
    return {
      error:
        'This confirmation link does not work: it may be cut short, or from an earlier sign-up. If you have confirmed already, sign in; if not, enter your e-mail address and press Resend confirmation e-mail for a new link.',
      resend: true,
    };
  }
  return {
    success: 'Your e-mail address is confirmed. Sign in to open your wallet.',
    resend: false,
  };
}
