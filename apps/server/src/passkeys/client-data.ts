/** The challenge a browser's answer carries in its clientDataJSON (base64url JSON), or undefined. */
export function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const challenge = (parsed as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length <= 1024 ? challenge : undefined;
  } catch {
    return undefined;
  }
}
