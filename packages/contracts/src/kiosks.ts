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
});
export type Kiosk = z.infer<typeof kioskSchema>;

export const kioskListResponseSchema = z.object({ kiosks: z.array(kioskSchema) });
export type KioskListResponse = z.infer<typeof kioskListResponseSchema>;
