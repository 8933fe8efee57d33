import type {
  applicantRequestSchema,
  applicantSchema,
  inquiryRequestSchema,
  inquirySchema,
  kioskApplicationRequestSchema,
  kioskApplicationSchema,
  vendorRegistrationRequestSchema,
  vendorRegistrationSchema,
} from '@hasta/contracts/forms';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Schema } from '../db/schema';

/** The public site's forms as stored: what was sent, without the honeypot. */
export type ApplicantInput = Omit<z.infer<typeof applicantRequestSchema>, 'website'>;
export type InquiryInput = Omit<z.infer<typeof inquiryRequestSchema>, 'website'>;
export type VendorRegistrationInput = Omit<z.infer<typeof vendorRegistrationRequestSchema>, 'website'>;
export type KioskApplicationInput = Omit<z.infer<typeof kioskApplicationRequestSchema>, 'website'>;

export type Applicant = z.infer<typeof applicantSchema>;
export type Inquiry = z.infer<typeof inquirySchema>;
export type VendorRegistration = z.infer<typeof vendorRegistrationSchema>;
export type KioskApplication = z.infer<typeof kioskApplicationSchema>;

/** Admin lists show the newest entries, this many at most. */
export const FORM_LIST_LIMIT = 1_000;

/** Throws the database's unique violation when the email is already on the waitlist. */
export async function insertApplicant(db: Kysely<Schema>, applicant: ApplicantInput): Promise<void> {
  await db
    .insertInto('applicants')
    .values({
      username: applicant.username,
      email: applicant.email,
      phonenumber: applicant.phonenumber,
      description: applicant.description,
    })
    .execute();
}

export async function insertInquiry(db: Kysely<Schema>, inquiry: InquiryInput): Promise<void> {
  await db
    .insertInto('inquiries')
    .values({
      name: inquiry.name,
      email_or_phone: inquiry.email_or_phone,
      role: inquiry.role,
      message: inquiry.message,
    })
    .execute();
}

export async function insertVendorRegistration(
  db: Kysely<Schema>,
  registration: VendorRegistrationInput,
): Promise<void> {
  await db
    .insertInto('vendor_registrations')
    .values({
      business_name: registration.business_name,
      owner_name: registration.owner_name,
      email: registration.email,
      phone: registration.phone,
      address: registration.address,
      interests: registration.interests,
      comments: registration.comments,
    })
    .execute();
}

export async function insertKioskApplication(
  db: Kysely<Schema>,
  application: KioskApplicationInput,
): Promise<void> {
  await db
    .insertInto('kiosk_applications')
    .values({
      name: application.name,
      email: application.email,
      phone: application.phone,
      address: application.address,
      premises: application.premises,
      footfall: application.footfall,
      power: application.power,
      internet: application.internet,
    })
    .execute();
}

export async function listApplicants(db: Kysely<Schema>): Promise<Applicant[]> {
  const rows = await db
    .selectFrom('applicants')
    .select(['id', 'username', 'email', 'phonenumber', 'description', 'created_at'])
    .orderBy('created_at', 'desc')
    .limit(FORM_LIST_LIMIT)
    .execute();
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/** Removes one person from the waitlist; false when there was no such entry. */
export async function deleteApplicant(db: Kysely<Schema>, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('applicants').where('id', '=', id).returning('id').executeTakeFirst();
  return deleted !== undefined;
}

export async function listInquiries(db: Kysely<Schema>): Promise<Inquiry[]> {
  const rows = await db
    .selectFrom('inquiries')
    .select(['id', 'name', 'email_or_phone', 'role', 'message', 'created_at'])
    .orderBy('created_at', 'desc')
    .limit(FORM_LIST_LIMIT)
    .execute();
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/** With the merchant account approved from each registration, if any. */
export async function listVendorRegistrations(db: Kysely<Schema>): Promise<VendorRegistration[]> {
  const rows = await db
    .selectFrom('vendor_registrations')
    .leftJoin('merchants', 'merchants.vendor_registration_id', 'vendor_registrations.id')
    .select([
      'vendor_registrations.id',
      'vendor_registrations.business_name',
      'vendor_registrations.owner_name',
      'vendor_registrations.email',
      'vendor_registrations.phone',
      'vendor_registrations.address',
      'vendor_registrations.interests',
      'vendor_registrations.comments',
      'vendor_registrations.created_at',
      'merchants.id as merchant_id',
    ])
    .orderBy('vendor_registrations.created_at', 'desc')
    .limit(FORM_LIST_LIMIT)
    .execute();
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

export async function listKioskApplications(db: Kysely<Schema>): Promise<KioskApplication[]> {
  const rows = await db
    .selectFrom('kiosk_applications')
    .select([
      'id',
      'name',
      'email',
      'phone',
      'address',
      'premises',
      'footfall',
      'power',
      'internet',
      'created_at',
    ])
    .orderBy('created_at', 'desc')
    .limit(FORM_LIST_LIMIT)
    .execute();
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}
