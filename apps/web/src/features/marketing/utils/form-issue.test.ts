import {
  applicantRequestSchema,
  inquiryRequestSchema,
  kioskApplicationRequestSchema,
  vendorRegistrationRequestSchema,
} from '@hasta/contracts/forms';
import { messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';

import { firstFormIssue } from './form-issue';

const waitlistRules = {
  required: ['username', 'email', 'phonenumber', 'description'] as const,
  requiredMessage: messages.allFieldsRequired,
  schema: applicantRequestSchema,
};

const applicant = {
  username: 'Asha',
  email: 'asha@example.in',
  phonenumber: '+91 98765 43210',
  description: 'I run a shop.',
};

describe('firstFormIssue', () => {
  it('accepts a complete waitlist form', () => {
    expect(firstFormIssue(applicant, waitlistRules)).toBeNull();
  });

  it('reports an empty field first, whatever else is wrong (spec §5.8 order)', () => {
    expect(firstFormIssue({ ...applicant, email: 'nope', description: '  ' }, waitlistRules)).toEqual({
      field: 'description',
      message: messages.allFieldsRequired,
    });
  });

  it('then the email, then the phone', () => {
    expect(firstFormIssue({ ...applicant, email: 'nope', phonenumber: '12' }, waitlistRules)).toEqual({
      field: 'email',
      message: messages.invalidEmail,
    });
    expect(firstFormIssue({ ...applicant, phonenumber: '12' }, waitlistRules)).toEqual({
      field: 'phonenumber',
      message: messages.invalidPhone,
    });
  });

  it('asks for all required fields of the kiosk host form (spec §5.1)', () => {
    const rules = {
      required: ['name', 'email', 'phone', 'address', 'premises', 'footfall'] as const,
      requiredMessage: messages.fillAllRequired,
      schema: kioskApplicationRequestSchema,
    };
    const host = {
      name: 'Ravi',
      email: 'ravi@example.in',
      phone: 'call me',
      address: 'MG Road',
      premises: 'School',
      footfall: 'about 300',
      power: true,
      internet: false,
    };
    expect(firstFormIssue(host, rules)).toBeNull();
    expect(firstFormIssue({ ...host, premises: '' }, rules)?.message).toBe(messages.fillAllRequired);
    expect(firstFormIssue({ ...host, email: 'ravi' }, rules)?.message).toBe(messages.invalidEmail);
  });

  it('checks the inquiry role and the vendor contact details', () => {
    const inquiry = { name: 'Meera', email_or_phone: 'meera', role: 'investor', message: 'Hello' };
    const inquiryRules = {
      required: ['name', 'email_or_phone', 'role', 'message'] as const,
      requiredMessage: messages.fillAllRequired,
      schema: inquiryRequestSchema,
    };
    expect(firstFormIssue(inquiry, inquiryRules)).toBeNull();
    expect(firstFormIssue({ ...inquiry, role: 'pirate' }, inquiryRules)?.field).toBe('role');

    const vendor = {
      business_name: 'Chai Corner',
      owner_name: 'Meera',
      email: 'meera@example.in',
      phone: '+91 98765 43210',
      address: 'Indiranagar',
      interests: ['API Integration'],
      comments: '',
    };
    const vendorRules = {
      required: ['business_name', 'owner_name', 'email', 'phone', 'address'] as const,
      requiredMessage: messages.fillAllRequired,
      schema: vendorRegistrationRequestSchema,
    };
    expect(firstFormIssue(vendor, vendorRules)).toBeNull();
    expect(firstFormIssue({ ...vendor, phone: 'x' }, vendorRules)).toEqual({
      field: 'phone',
      message: messages.invalidPhone,
    });
  });
});
