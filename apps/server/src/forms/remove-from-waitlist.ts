import { AppError } from '../lib/app-error';
import { deleteApplicant } from './form-repository';
import type { FormDeps } from './submit-form';

/** An admin removes someone from the waitlist. */
export async function removeFromWaitlist(deps: FormDeps, applicantId: string): Promise<void> {
  if (!(await deleteApplicant(deps.db, applicantId))) throw AppError.of('NOT_FOUND', 'applicantNotFound');
}
