/** Copy shared by several public pages: the five steps, the headline figures, the kiosk and POS dialogs. */
export const marketing = {
  steps: {
    scan: {
      title: 'Infrared palm scan',
      body: 'An infrared sensor reads the vein pattern under the skin of your palm.',
      detail:
        'Near-infrared light shows the veins beneath the skin: a pattern unique to each hand that a photo does not capture.',
    },
    hash: {
      title: 'Geometric hashing',
      body: 'Over 500 data points become an irreversible, keyed template; the raw image is discarded.',
      detail:
        'The template cannot be turned back into a picture of your palm, and without Hasta’s key it is useless to anyone else.',
    },
    consent: {
      title: 'Consent stored on chain',
      body: 'Your consent is written to an append-only log that is anchored on a public blockchain.',
      detail:
        'Polygon by default, with Celo supported. Only a fingerprint (hash) of the record goes on chain, never your palm data.',
    },
    deduct: {
      title: 'INR wallet deduction',
      body: 'The amount is deducted from your rupee wallet.',
      detail:
        'A double-entry ledger moves the money, so every rupee that leaves your wallet arrives somewhere you can trace.',
    },
    mint: {
      title: 'Transaction minted on chain',
      body: 'The payment gets its own transaction id in the same verifiable log.',
      detail:
        'It appears in your history at once, with an id you can check against the public anchor on the blockchain.',
    },
  },
  figures: {
    accuracy: 'biometric accuracy',
    verification: 'to verify a payment',
    verificationValue: 'Under {{seconds}} s',
    dataPoints: 'data points per palm',
    patentClaims: 'patent claims filed',
    privacy: 'of raw palm images discarded',
  },
  form: {
    required: 'required',
    sending: 'Sending…',
    honeypot: 'Leave this field empty',
  },
  kiosk: {
    locateTitle: 'Locate a kiosk',
    locateIntro: 'Register your palm at a Hasta kiosk near you. Search by pincode, city or area.',
    searchLabel: 'Pincode, city or area',
    searchPlaceholder: 'e.g. 560038 or Mumbai',
    search: 'Search',
    showAll: 'Show all kiosks',
    loading: 'Loading kiosks…',
    found_one: '{{count}} kiosk found',
    found_other: '{{count}} kiosks found',
    foundFor_one: '{{count}} kiosk found for “{{query}}”',
    foundFor_other: '{{count}} kiosks found for “{{query}}”',
    none: 'No kiosks match “{{query}}”. Try another pincode or city.',
    loadFailed: 'Could not load kiosks. Please try again.',
    retry: 'Try again',
    listLabel: 'Kiosks',
    mapLabel: 'Map of Hasta kiosks in India',
    mapUnavailable: 'Map unavailable — showing the list.',
    mapLoading: 'Loading map…',
    status: 'Status',
    type: 'Type',
    hours: 'Hours',
    pincode: 'Pincode',
    statusValues: {
      Active: 'Active',
    },
    typeValues: {
      'Registration kiosk': 'Registration kiosk',
    },
  },
  host: {
    title: 'Host a kiosk',
    intro:
      'Have a space with steady footfall? Host a Hasta palm-registration kiosk and help people near you start paying with their palm.',
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    address: 'Address of the premises',
    premises: 'Type of premises',
    premisesPlaceholder: 'Select the type of premises',
    premisesOptions: {
      School: 'School',
      Office: 'Office',
      Store: 'Store',
      NGO: 'NGO',
      Other: 'Other',
    },
    footfall: 'Daily footfall',
    footfallHint: 'Roughly how many people visit each day.',
    facilities: 'Facilities',
    power: 'Reliable power supply',
    internet: 'Internet connection',
    submit: 'Submit application',
    submitting: 'Submitting…',
  },
  pos: {
    title: 'POS device specifications',
    intro:
      'Partners can use Hasta’s Android POS device, or pair the palm scanner with an existing terminal over Bluetooth.',
    specLabel: 'Specification',
    valueLabel: 'Value',
    labels: {
      os: 'Operating system',
      screen: 'Screen',
      memory: 'Memory',
      battery: 'Battery',
      connectivity: 'Connectivity',
    },
  },
};
