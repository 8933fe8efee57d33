import { z } from 'zod';

export const kioskSchema = z.object({
  id: z.string(),
  name: z.string(),
  lat: z.number(),
  lng: z.number(),
  address: z.string(),
  city: z.string(),
  pincode: z.string(),
  status: z.string(),
  type: z.string(),
  hours: z.string(),
  /** The same in Hindi (issue 27), shown when the site is in Hindi; null where a kiosk has none. */
  name_hi: z.string().nullable(),
  address_hi: z.string().nullable(),
  city_hi: z.string().nullable(),
  hours_hi: z.string().nullable(),
});
export type Kiosk = z.infer<typeof kioskSchema>;

export const kioskListResponseSchema = z.object({ kiosks: z.array(kioskSchema) });
export type KioskListResponse = z.infer<typeof kioskListResponseSchema>;
