/** Sign-in, registration and password screens, English. */
export const auth = {
  login: {
    newHere: 'New to {{product}}?',
    register: 'Register',
  },
  register: {
    haveAccount: 'Already have an account?',
    login: 'Login',
    username: 'Username',
    contact: 'Email or phone number',
    contactHint: 'We send a 6-digit verification code to it.',
    sending: 'Sending...',
    send: 'Send Verification Code',
  },
  forced: {
    title: 'Choose a new password',
    reset: 'Your password was reset by an administrator.',
    firstTitle: 'Welcome: choose your password',
    first: 'This is your first sign-in, with the temporary password from your welcome email.',
    temporary: 'Temporary password',
    new: 'New password',
    confirm: 'Confirm new password',
    saving: 'Changing...',
    save: 'Save New Password',
    back: 'Back to login',
  },
};
