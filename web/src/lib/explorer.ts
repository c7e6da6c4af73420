/** A block explorer's page for an address or a transaction (EXPLORER_URL, from /api/config). */
export function explorerPage(explorerUrl: string, kind: 'address' | 'tx', id: string): string {
  return `${explorerUrl.replace(/\/+$/, '')}/${kind}/${id}`;
}
