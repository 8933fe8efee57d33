/** An email or E.164 phone, already normalised by the contracts. */
export interface Contact {
  email?: string | undefined;
  phone?: string | undefined;
}

export function identifierOf(contact: Contact): string {
  const identifier = contact.email ?? contact.phone;
  if (identifier === undefined) throw new Error('A contact needs an email or a phone');
  return identifier;
}

export function channelOf(identifier: string): 'email' | 'sms' {
  return identifier.startsWith('+') ? 'sms' : 'email';
}
