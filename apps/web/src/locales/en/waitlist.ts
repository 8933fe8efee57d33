/** The waitlist page (spec §2.10). */
export const waitlist = {
  title: 'Join the Hasta Waitlist',
  lead: 'Be among the first to pay with your palm when Hasta launches in your city.',
  name: 'Name',
  email: 'Email',
  phone: 'Phone Number',
  description: 'Description',
  descriptionHint: 'Tell us a little about yourself: are you a shopper, a merchant, or something else?',
  submit: 'Join Waitlist',
  submitting: 'Joining…',
};
