import {
  listApplicants,
  listInquiries,
  listKioskApplications,
  listVendorRegistrations,
  type Applicant,
  type Inquiry,
  type KioskApplication,
  type VendorRegistration,
} from './form-repository';
import type { FormDeps } from './submit-form';

/** What admins read of the public forms: the newest entries of each, a bounded list. */
export function waitlist(deps: FormDeps): Promise<Applicant[]> {
  return listApplicants(deps.db);
}

export function inquiries(deps: FormDeps): Promise<Inquiry[]> {
  return listInquiries(deps.db);
}

export function vendorRegistrations(deps: FormDeps): Promise<VendorRegistration[]> {
  return listVendorRegistrations(deps.db);
}

export function kioskApplications(deps: FormDeps): Promise<KioskApplication[]> {
  return listKioskApplications(deps.db);
}
