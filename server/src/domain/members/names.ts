// How one member is named to another.

/** The name a member is greeted by in mails and shown by to others (the inviter on a referral
 * link's page, a friend on the network page): the first word of the name they gave, at most 40
 * characters, or null when they gave none (never the username, which is often the e-mail's local
 * part, nor the e-mail). */
export function firstNameOf(fullName: string | null | undefined): string | null {
  const first = fullName?.trim().split(/\s+/)[0] ?? '';
  return first ? first.slice(0, 40) : null;
}
