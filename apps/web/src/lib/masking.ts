/**
 * What a screen shows of a person to someone else, or of a person's own contact where a code went (issue 27):
 * enough to recognise, not enough to copy.
 */

/**
 * The payee as the payer sees them on the receiver's screen before a palm payment: the first name and the
 * initial of the last ("Asha Kumar" -> "Asha K."), a one-word name as it is; without a name, the masked
 * contact.
 */
export function payeeName(person: {
  username: string | null;
  email: string | null;
  phone: string | null;
}): string {
  const words = (person.username ?? '')
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '');
  const [first] = words;
  if (first !== undefined) {
    const last = words.length > 1 ? Array.from(words[words.length - 1]!)[0] : undefined;
    return last === undefined ? first : `${first} ${last.toLocaleUpperCase('en-IN')}.`;
  }
  const contact = person.phone ?? person.email;
  return contact === null ? '' : maskDestination(contact);
}

/**
 * Where a code went, masked: "+919876543210" -> "+91 ••••••3210"; "asha@gmail.com" -> "a•••@g•••.com" (the
 * first letter of the name and of the domain, and the domain's last part).
 */
export function maskDestination(contact: string): string {
  const text = contact.trim();
  const at = text.lastIndexOf('@');
  if (at < 0) {
    const digits = text.replace(/\D/gu, '');
    const national = digits.length > 10 ? digits.slice(-10) : digits;
    const country = digits.length > 10 ? digits.slice(0, -10) : text.startsWith('+') ? '' : '91';
    const prefix = country === '' ? '' : `+${country} `;
    return `${prefix}${'•'.repeat(Math.max(0, national.length - 4))}${national.slice(-4)}`;
  }
  const [local] = Array.from(text.slice(0, at));
  const domain = text.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const [domainFirst] = Array.from(domain);
  const tail = dot > 0 ? domain.slice(dot) : '';
  return `${local ?? ''}•••@${domainFirst ?? ''}•••${tail}`;
}
