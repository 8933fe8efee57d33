/** The placeholder privacy and terms pages. */
export const legal = {
  privacy: {
    title: 'Privacy',
    body: 'Our privacy policy is being written and will be published on this page before Hasta launches. For any question about your data in the meantime, see',
  },
  terms: {
    title: 'Terms',
    body: 'The terms of service are being written and will be published on this page before Hasta launches. For any question in the meantime, see',
  },
  contactLink: 'About / Contact',
};
