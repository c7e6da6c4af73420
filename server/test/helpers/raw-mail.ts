// A raw message as a mail server receives it, read as a reader sees it: headers unfolded, parts
// decoded, HTML as visible text.
interface Part {
  headers: string;
  body: string;
}

/** Splits a raw message (or a part) into its headers, unfolded, and its body. */
export function split(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n');
  return { headers: raw.slice(0, at).replace(/\r\n[ \t]+/g, ' '), body: raw.slice(at + 4) };
}

export const header = (part: Part, name: string) =>
  new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(part.headers)?.[1]?.trim() ?? '';

/** A part's body as text, undoing its quoted-printable or base64 transfer encoding. */
function decoded(part: Part): string {
  const encoding = header(part, 'Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString();
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return part.body;
}

/** The message's type and its parts' types and decoded bodies. */
export function parse(raw: string): { type: string; parts: { type: string; body: string }[] } {
  const message = split(raw);
  const type = header(message, 'Content-Type');
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) return { type, parts: [] };
  const parts = message.body
    .split(`--${boundary}`)
    .slice(1, -1) // the preamble, and what follows the closing boundary
    .map((chunk) => split(chunk.replace(/^\r\n/, '').replace(/\r\n$/, '')))
    .map((part) => ({ type: header(part, 'Content-Type'), body: decoded(part) }));
  return { type, parts };
}

/** What a reader sees of an HTML body: its text without tags, entities undone. */
export function visibleText(html: string): string {
  return html
    .replace(/<head>[\s\S]*<\/head>/i, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

export const unescapeAttr = (value: string) =>
  value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
