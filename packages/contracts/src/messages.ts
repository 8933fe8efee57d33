/**
 * The product's message catalogue (spec §5 and §8), verbatim. Server and web both read the texts from here,
 * so a message is typed once.
 */
export const messages = {
  // §5 validation
  fillAllRequired: 'Please fill all required fields.',
  allFieldsRequired: 'All fields are required.',
  newPasswordMinLength: 'New password must be at least 6 characters.',
  passwordsDoNotMatch: 'Passwords do not match.',
  invalidEmail: 'Please enter a valid email address.',
  invalidPhone: 'Please enter a valid phone number.',
  enterSixDigitCode: 'Please enter the 6-digit code.',
  registerIdentityRequired: 'Email or phone and username are required.',
  registerInvalidContact: 'Please enter a valid email address or phone number.',
  usernameMinLength: 'Username must be at least 2 characters long.',
  enterSixDigitVerificationCode: 'Please enter the 6-digit verification code.',
  passwordAndConfirmRequired: 'Password and confirm password are required.',
  passwordMinLength: 'Password must be at least 6 characters long.',
  receiverRequired: 'Please enter either receiver email or phone number.',
  amountRequired: 'Please enter amount.',
  amountPositive: 'Amount must be greater than 0.',
  selfSendEmail: 'You cannot send money to yourself. Please enter a different email address.',
  selfSendPhone: 'You cannot send money to yourself. Please enter a different phone number.',
  invalidOtp: 'Please enter a valid 6-digit OTP.',
  invalidAmount: 'Please enter a valid amount.',
  tooManyOtpRequests: 'Too many OTP requests. Please try again later.',
  tooManyAttempts: 'Too many incorrect attempts. Please try again later.',

  // §8 forms and admin
  hostThankYou: 'Thank you! Your application has been submitted. We will contact you soon.',
  requestFailed: 'Failed to send request.',
  requestSent: 'Request sent!',
  failedToLoadUsers: 'Failed to load users',
  failedToLoadApplicants: 'Failed to load applicants',
  failedToLoadTransactions: 'Failed to load transactions',
  failedToLoadInquiries: 'Failed to load inquiries',
  failedToLoadVendorRegistrations: 'Failed to load vendor registrations',
  failedToSendValue: 'Failed to send value',
  valueSent: 'Value sent successfully!',
  confirmDeleteTransaction: 'Delete this transaction?',
  transactionDeleted: 'Transaction deleted.',
  confirmDeleteApplicant: 'Delete this applicant?',
  applicantDeleted: 'Applicant deleted.',

  // §8 user app
  loginRequestFailed: 'Request failed',
  failedToLoadDashboard: 'Failed to load dashboard',
  userNotLoggedIn: 'User not logged in',
  failedToChangePassword: 'Failed to change password.',
  transactionFailed: 'Transaction failed',
  waitlistJoined: 'Successfully joined the waitlist!',
  waitlistFailed: 'Failed to register.',
  userNotFoundLogin: 'User not found. Please log in.',
  authTokenMissing: 'Auth token missing. Please login again.',
  networkUnavailable:
    'Unable to connect to server. Please check your internet connection or try again later.',
  serverNotResponding: 'Server is not responding. Please ensure the backend server is running.',
  userNotAuthenticated: 'User not authenticated',
  failedToLoadHistory: 'Failed to load transaction history',

  // chrome
  comingSoonBody: 'This feature will be available in a future update.',

  // server-side generic answers (not in the spec's catalogue: plain words for what it leaves open)
  notFound: 'Not found.',
  forbidden: 'You do not have permission to do that.',
  unauthorized: 'Please log in to continue.',
  rateLimited: 'Too many requests. Please try again later.',
  invalidRequest: 'The request is not valid.',
  internal: 'Something went wrong on our side. Please try again later.',
  passwordTooLong: 'Password must be at most 200 characters long.',
  commonPassword: 'This password is too common. Please choose a less guessable one.',
  wrongCredentials: 'Incorrect email/phone or password.',
  wrongOriginalPassword: 'The current password is incorrect.',
  accountExists: 'An account with this email or phone already exists. Please log in.',
  verificationRequired: 'Please verify your email or phone with the code we sent first.',
  passwordChangeRequired: 'Please choose a new password before continuing.',
  userNotFound: 'User not found.',
  otpSentEmail: 'OTP sent to your email successfully!',
  otpSentPhone: 'OTP sent to your phone number successfully!',
  invalidVerificationCode: 'Invalid verification code.',
  loggedOut: 'Logged out.',
  passwordChanged: 'Password changed successfully.',
  passwordResetDone: 'Your password has been reset.',
  accountCreated: 'Account created successfully.',
} as const;

export type MessageKey = keyof typeof messages;

export const comingSoonTitle = (feature: string): string => `${feature} Coming Soon!`;
