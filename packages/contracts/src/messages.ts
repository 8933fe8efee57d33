/**
 * The product's message catalogue (spec §5 and §8), verbatim. Server and web both read the texts from here,
 * so a message is typed once.
 */
/** The refusal of an amount over the wallet limit, with the limit as configured ('₹2,00,000' by default). */
export function balanceLimitMessage(limitText: string): string {
  return `This would take the wallet above its ${limitText} limit.`;
}

/** The refusal of an amount under a configured smallest amount above ₹0.01 (else amountPositive). */
export function amountMinimumMessage(minimumText: string): string {
  return `Amount must be at least ${minimumText}.`;
}

/** A redemption under the configured minimum of points. */
export function redeemMinimumMessage(minimumPoints: number): string {
  return `Redeem at least ${minimumPoints} points.`;
}

/** A redemption that is not a whole number of rupees at the configured rate. */
export function redeemWholeRupeesMessage(pointsPerRupee: number): string {
  return `Points are redeemed in whole rupees: a multiple of ${pointsPerRupee} points.`;
}

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
  chooseUser: 'Please choose a user.',
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
  failedToSendEmailOtp: 'Failed to send email OTP',
  failedToSendOtp: 'Failed to send OTP',
  failedToSendOtpRetry: 'Failed to send OTP. Please try again.',
  otpVerificationFailed: 'OTP verification failed',
  otpVerificationFailedRetry: 'OTP verification failed. Please try again.',
  loginFailed: 'Login failed',
  failedToSendSms: 'Failed to send SMS',
  failedToSendVerificationCode: 'Failed to send verification code.',
  failedToVerifyOtp: 'Failed to verify OTP.',
  registrationFailed: 'Registration failed',
  failedToCompleteRegistration: 'Failed to complete registration',
  failedToResetPasswordPrefix: 'Failed to reset password: ',
  failedToDeleteTransactionPrefix: 'Failed to delete transaction: ',
  failedToDeleteApplicantPrefix: 'Failed to delete applicant: ',
  noOtpContact: 'No phone number or email found for OTP delivery.',
  invalidOtpContact: 'Invalid OTP type or contact method.',
  transferProcessingFailed: 'Transfer processing failed',
  palmRegistrationFailed: 'Registration failed.',
  handScanRegistrationFailed: 'Hand scan registration failed.',
  authenticationFailed: 'Authentication failed',
  authenticationFailedRetry: 'Authentication failed. Please try again.',
  scanFailed: 'Scan failed. Please try again.',
  authenticationSuccessful: 'Authentication successful!',
  canReceiveFunds: 'You can now receive funds.',
  notificationsOn: 'Notifications activated!',
  notificationsOff: 'Notifications deactivated!',
  copied: 'Copied!',
  transactionSuccessful: 'Transaction Successful!',
  paymentProcessed: 'The payment has been processed.',

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
  smsCountryNotAllowed: 'We cannot send SMS codes to this country. Please use your email address instead.',
  invalidVerificationCode: 'Invalid verification code.',
  loggedOut: 'Logged out.',
  passwordChanged: 'Password changed successfully.',
  passwordResetDone: 'Your password has been reset.',
  accountCreated: 'Account created successfully.',
  moneySent: 'Money sent successfully!',
  alreadyOnWaitlist: 'This email is already on the waitlist.',
  invalidBankAccount: 'Please enter a valid bank account number (9 to 18 digits).',
  invalidIfsc: 'Please enter a valid IFSC code.',
  vendorNotFound: 'Vendor registration not found.',
  vendorAlreadyApproved: 'This vendor is already a merchant.',
  merchantOnly: 'This page is for merchants.',
  bankAccountNotFound: 'Bank account not found.',
  payoutNotFound: 'Withdrawal not found.',
  payoutAlreadyResolved: 'This withdrawal was already settled or rejected.',
  payoutExpired: 'This withdrawal expired before it was settled; the amount is back in the store balance.',
  withdrawalRequested: 'Withdrawal requested. The amount is reserved until it is settled.',
  settingsSaved: 'Settings saved.',
  merchantApproved: 'Vendor approved: the merchant account is ready and its owner has been emailed.',
  payoutSettled: 'Withdrawal settled.',
  payoutRejected: 'Withdrawal rejected.',
  invalidQr: 'This QR code is not a Hasta payment code.',
  qrNotFound: 'This payment QR code is no longer valid.',
  ownQr: 'This is your own payment QR code: you cannot pay yourself.',
  qrCreated: 'QR code created.',
  qrLimitReached: 'This store already keeps the most QR codes it can (500).',
  qrLabelTooLong: 'The label can have at most 60 characters.',
  chooseBankAccount: 'Please choose a bank account.',
  bankAccountSaved: 'Bank account saved.',
  cameraUnavailable: 'The camera could not be opened. Allow camera access, or pay by phone/email instead.',
  applicantNotFound: 'Applicant not found.',
  receiverNotFound: 'No Hasta account uses that email or phone number.',
  receiverChanged: 'The receiver’s account changed while sending. Nothing was sent; please try again.',
  transferVerificationRequired: 'Please verify the OTP sent to your phone/email first.',
  insufficientFunds: 'Insufficient balance for this transfer.',
  // Rewards (issue 24)
  insufficientPoints: 'You do not have that many points.',
  referralCodeUnknown: 'This referral code is not known.',
  referralSelf: 'You cannot use your own referral code.',
  referralAlreadyJoined: 'A referral code was already used for this account.',
  referralTooLate: 'A referral code can only be used by a new account.',
  balanceLimitExceeded: balanceLimitMessage('₹2,00,000'),
  amountTooPrecise: 'Amount can have at most 2 decimal places.',
  idempotencyConflict: 'This request id was already used for a different request.',
  transactionNotFound: 'Transaction not found.',
  sessionNotFound: 'Session not found.',
  otherSessionsSignedOut: 'Signed out everywhere else.',
  sessionSignedOut: 'That session was signed out.',
  transactionAlreadyReversed: 'This transaction was already deleted.',
  reversalWouldOverdraw: 'This transaction cannot be deleted: the receiver no longer has the money.',

  // Palm (the spec's catalogue has the generic scan texts; these say what went wrong).
  palmConsentRequired: 'Please read the notice and agree before your palm is registered.',
  handAlreadyRegistered: 'This hand is already registered.',
  palmAlreadyEnrolled: 'This palm is already registered to a Hasta account.',
  palmScanUnclear:
    'The palm was not clear enough. Hold your palm flat inside the box, in good light, and try again.',
  palmScanDark: 'The palm picture was too dark. Move to better light and try again.',
  palmScanBright: 'The palm picture was too bright. Move out of direct light and try again.',
  palmScanBlurred: 'The palm picture was blurred. Hold your hand still and try again.',
  palmScanNotPalm: 'No palm was seen in the picture. Hold your open palm inside the box and try again.',
  palmScansDisagree:
    'The scans did not agree with each other. Hold your palm still inside the box and try again.',
  palmTooManyFailures:
    'Too many palm scans were not recognised here. Please wait a while, or pay by phone/email with an OTP instead.',
  palmNotRecognised: 'This palm was not recognised. Try again, or pay by phone/email instead.',
  palmSelfPayment: 'You cannot pay yourself with your own palm.',
  palmCodeSentPhone: 'Palm recognised. Ask the payer for the 6-digit code sent to their phone.',
  palmCodeSentEmail: 'Palm recognised. Ask the payer for the 6-digit code sent to their email.',
  palmPaymentNotFound: 'Palm payment not found.',
  palmPaymentExpired: 'This palm payment expired and nothing was paid. Please scan the palm again.',
  palmPaymentCancelled: 'Palm payment cancelled. Nothing was paid.',
  palmPaymentClosed: 'This palm payment was cancelled and nothing was paid. Please scan the palm again.',
  palmPaymentAlreadyConfirmed: 'This palm payment was already confirmed.',
  palmDemoDisabled: 'Demo palms are not accepted here. Please use the camera.',
  receiverNotCaller: 'Money received by palm goes to the signed-in account only.',
  palmConsentWithdrawn: 'Consent withdrawn. Palm payments are stopped for your account.',
  palmConsentRestored: 'Consent given again. Palm payments work again for your account.',
  palmDataErased: 'Your palm data was erased.',
  noPalmToWithdraw: 'There is no palm consent to withdraw.',
  noPalmToRestore: 'There is no withdrawn palm consent to give again.',
  noPalmToErase: 'There is no palm data to erase.',

  // Palm trust (issue 21): step-up, admin-assisted enrolment, freeze, "Not me" and disputes.
  stepUpCodeSentPhone: 'We sent a 6-digit code to your phone. Enter it to continue.',
  stepUpCodeSentEmail: 'We sent a 6-digit code to your email. Enter it to continue.',
  stepUpVerified: 'Verified. You can continue for the next 5 minutes.',
  storeContactVerified: 'Contact verified. Payers now see it on your store.',
  stepUpRequired: 'For your safety, confirm it is you with the code we send to your phone or email first.',
  palmEnrolmentApprovalSent:
    'We sent a code to the account owner. They approve this registration on their own phone.',
  palmEnrolmentRequestNotFound: 'This palm registration request was not found.',
  palmEnrolmentRequestClosed: 'This palm registration request is no longer waiting.',
  palmEnrolmentDeclined: 'Palm registration declined. Nothing was registered.',
  palmPayFrozen: 'Palm pay is paused for this person. Please pay by phone/email with an OTP instead.',
  palmPayUnfrozen: 'Palm pay is on again for your account.',
  palmPayNotFrozen: 'Palm pay is not paused for your account.',
  palmRegistrationRefused:
    'This palm could not be registered. Hold your palm flat and still inside the box, in good light, and try again.',
  palmRegistrationLimit:
    'Too many palm registration attempts on this account today. Please try again tomorrow.',
  palmEnrolmentRequestFailed: 'Too many wrong codes. This palm registration request was cancelled.',
  notMeLinkInvalid: 'This link is not valid or was already used.',
  notMeReported: 'Thank you. Palm pay is paused for your account and we are looking into this payment.',
  disputeAlreadyOpen: 'This payment is already reported.',
  disputeNotPalmPayment: 'Only palm payments you made can be reported here.',
  disputeNotFound: 'Dispute not found.',
  disputeClosed: 'This dispute is already closed.',
  disputeReasonRequired: 'Please give a reason of at most 500 characters.',
  disputeRefunded: 'Refunded to the payer.',
  disputeRejected: 'Dispute rejected. The payer is told why.',
  failedToLoadDisputes: 'Failed to load disputes',

  // The verifiable log (not in the spec).
  receiptNotReady: 'This receipt is not ready yet: it appears within a few seconds of the transaction.',
  logProofOutOfRange: 'The requested tree size or index is beyond the log’s latest checkpoint.',

  // Admin dashboard texts the spec's catalogue does not have (its §8 covers five lists; these follow its
  // wording for the lists and actions the dashboard gained).
  failedToLoadKioskApplications: 'Failed to load kiosk applications',
  failedToLoadMerchants: 'Failed to load merchants',
  failedToLoadWithdrawals: 'Failed to load withdrawals',
  failedToApproveVendorPrefix: 'Failed to approve vendor: ',
  failedToSettleWithdrawalPrefix: 'Failed to settle withdrawal: ',
  failedToRejectWithdrawalPrefix: 'Failed to reject withdrawal: ',
  failedToExportUsersPrefix: 'Failed to export users: ',
  usersExported: 'Users exported to users.csv.',
  usersExportTruncated: 'Only the first 200,000 users were exported: narrow the search to export the rest.',
  userSearchTooLong: 'Search text can be at most 100 characters long.',
  userSearchInvalid: 'Search text must be plain text without control characters.',
  pageSizeInvalid: 'Page size must be a whole number from 1 to 500.',
  pageCursorInvalid: 'This page link is not valid. Please go back to the first page.',
  userIdsInvalid: 'ids must be a comma-separated list of at most 100 user ids.',

  // Passkeys (issue 23): the second factor of admins and store owners, and a code's stand-in for anyone.
  secondFactorRequired: 'Confirm it is you with your passkey to finish signing in.',
  passkeyReauthRequired: 'For your safety, confirm it is you with your passkey again before moving money.',
  passkeyNotVerified: 'This passkey could not be verified. Please try again.',
  passkeyChallengeExpired: 'This passkey request has expired or was already used. Please try again.',
  passkeyRegistered: 'Passkey added.',
  passkeyRemoved: 'Passkey removed.',
  passkeyNotFound: 'This passkey was not found.',
  passkeyLastOneKept: 'You cannot remove your only passkey: add another one first.',
  passkeyAlreadyRegistered: 'This account already has a passkey: sign in with it.',
  recoveryCodeInvalid: 'This recovery code is not valid or was already used.',
  secondFactorPassed: 'Signed in.',

  // Devices (issue 22): kiosks, store terminals and a person's own browser, paired, each scan signed.
  deviceRequired: 'This device is not paired. Pair it with a code first.',
  deviceRevoked: 'This device was removed. Pair it again with a new code.',
  deviceNotFound: 'Device not found.',
  deviceNotAllowed: 'This device cannot do that.',
  devicePublicKeyInvalid: 'This device’s key could not be read. Please pair the device again.',
  devicePaired: 'Device paired.',
  deviceRemoved: 'Device removed. It can no longer take scans.',
  pairingCodeInvalid: 'This pairing code is wrong, expired or already used. Ask for a new code.',
  pairingCodeCreated: 'Pairing code created. Enter it on the device within 10 minutes.',
  scanChallengeRequired: 'This scan was not signed by a paired device. Please scan again on a paired device.',
  scanChallengeInvalid: 'This scan was not accepted from this device. Please scan again.',
  scanChallengeExpired: 'This scan took too long. Please scan again.',
} as const;

export type MessageKey = keyof typeof messages;

export const comingSoonTitle = (feature: string): string => `${feature} Coming Soon!`;
