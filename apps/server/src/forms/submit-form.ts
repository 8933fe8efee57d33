import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import {
  insertApplicant,
  insertInquiry,
  insertKioskApplication,
  insertVendorRegistration,
  type ApplicantInput,
  type InquiryInput,
  type KioskApplicationInput,
  type VendorRegistrationInput,
} from './form-repository';

export interface FormDeps {
  db: Kysely<Schema>;
}

/** A form as sent: `website` is the honeypot, a hidden field people never fill. */
type Sent<Form> = Form & { website?: string | undefined };

/**
 * The public site's forms (spec §5.1-5.3, §5.8). A form whose honeypot is filled came from a bot: it is
 * answered as usual and nothing is stored, so the bot learns nothing.
 */
export type SubmittedForm =
  | { kind: 'applicant'; form: Sent<ApplicantInput> }
  | { kind: 'inquiry'; form: Sent<InquiryInput> }
  | { kind: 'vendor-registration'; form: Sent<VendorRegistrationInput> }
  | { kind: 'kiosk-application'; form: Sent<KioskApplicationInput> };

export async function submitForm(deps: FormDeps, submitted: SubmittedForm): Promise<void> {
  if (submitted.form.website) return;
  const { db } = deps;
  switch (submitted.kind) {
    case 'applicant':
      try {
        await insertApplicant(db, submitted.form);
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'alreadyOnWaitlist');
        throw error;
      }
      return;
    case 'inquiry':
      return insertInquiry(db, submitted.form);
    case 'vendor-registration':
      return insertVendorRegistration(db, submitted.form);
    case 'kiosk-application':
      return insertKioskApplication(db, submitted.form);
  }
}
