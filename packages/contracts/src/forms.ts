import { z } from 'zod';
import { INQUIRY_ROLES, PREMISES_OPTIONS, VENDOR_INTERESTS } from './constants';
import { emailSchema, phoneSchema } from './auth';
import { messages } from './messages';

/** A hidden field people never fill; bots do. A filled one is answered as usual and not stored. */
const honeypot = { website: z.string().max(500).optional() };

const required = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, messages.invalidRequest);

// POST /api/applicants (waitlist, spec §2.10, §5.8)
export const applicantRequestSchema = z.object({
  username: required(messages.allFieldsRequired, 100),
  email: required(messages.allFieldsRequired, 320).pipe(emailSchema),
  phonenumber: required(messages.allFieldsRequired, 30).pipe(phoneSchema),
  description: required(messages.allFieldsRequired, 2000),
  ...honeypot,
});
export const applicantSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  phonenumber: z.string(),
  description: z.string(),
  created_at: z.string(),
});
export const applicantCreatedSchema = z.object({ success: z.literal(true), message: z.string() });
export const applicantListSchema = z.object({ applicants: z.array(applicantSchema) });

// POST /api/inquiry (spec §5.2)
export const inquiryRequestSchema = z.object({
  name: required(messages.fillAllRequired, 100),
  email_or_phone: required(messages.fillAllRequired, 320),
  role: z.enum(INQUIRY_ROLES, { error: messages.fillAllRequired }),
  message: required(messages.fillAllRequired, 4000),
  ...honeypot,
});
export const inquirySchema = z.object({
  id: z.string(),
  name: z.string(),
  email_or_phone: z.string(),
  role: z.string(),
  message: z.string(),
  created_at: z.string(),
});
export const inquiryListSchema = z.object({ inquiries: z.array(inquirySchema) });

// POST /api/vendor-registration (spec §5.3)
export const vendorRegistrationRequestSchema = z.object({
  business_name: required(messages.fillAllRequired, 200),
  owner_name: required(messages.fillAllRequired, 100),
  email: required(messages.fillAllRequired, 320).pipe(emailSchema),
  phone: required(messages.fillAllRequired, 30).pipe(phoneSchema),
  address: required(messages.fillAllRequired, 500),
  interests: z.array(z.enum(VENDOR_INTERESTS)).max(VENDOR_INTERESTS.length).default([]),
  comments: z.string().trim().max(4000).default(''),
  ...honeypot,
});
export const vendorRegistrationSchema = z.object({
  id: z.string(),
  business_name: z.string(),
  owner_name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  interests: z.array(z.string()),
  comments: z.string(),
  created_at: z.string(),
  /** The merchant account approved from this registration, if any (POST /api/merchants). */
  merchant_id: z.string().nullable(),
});
export const vendorRegistrationListSchema = z.object({ registrations: z.array(vendorRegistrationSchema) });

// POST /api/kiosk-applications (spec §5.1)
export const kioskApplicationRequestSchema = z.object({
  name: required(messages.fillAllRequired, 100),
  email: required(messages.fillAllRequired, 320).pipe(emailSchema),
  phone: required(messages.fillAllRequired, 30),
  address: required(messages.fillAllRequired, 500),
  premises: z.enum(PREMISES_OPTIONS, { error: messages.fillAllRequired }),
  footfall: required(messages.fillAllRequired, 100),
  power: z.boolean().default(false),
  internet: z.boolean().default(false),
  ...honeypot,
});
export const kioskApplicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  premises: z.string(),
  footfall: z.string(),
  power: z.boolean(),
  internet: z.boolean(),
  created_at: z.string(),
});
export const kioskApplicationListSchema = z.object({ applications: z.array(kioskApplicationSchema) });

/** Every public form answers this on success (201). */
export const formCreatedSchema = z.object({ success: z.literal(true), message: z.string() });
