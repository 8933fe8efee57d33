import type { Kiosk } from '@hasta/contracts/kiosks';

/** A kiosk's name, address and hours in the page's language: its Hindi fields in Hindi, where it has them. */
export function kioskText(kiosk: Kiosk, language: string): { name: string; address: string; hours: string } {
  const hindi = language === 'hi';
  return {
    name: (hindi ? kiosk.name_hi : null) ?? kiosk.name,
    address: (hindi ? kiosk.address_hi : null) ?? kiosk.address,
    hours: (hindi ? kiosk.hours_hi : null) ?? kiosk.hours,
  };
}
