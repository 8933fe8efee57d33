/** The technology page (spec §2.4). */
export const technology = {
  title: 'The Technology Behind Hasta',
  lead: 'A camera picture of your palm is turned into a protected template on our server and checked against the registered palms. The picture itself is never stored.',
  goals: {
    title: 'Our goals',
    simple: {
      title: 'Nothing to carry',
      body: 'Pay with your hand alone: no card, no phone, no PIN.',
    },
    private: {
      title: 'Private by design',
      body: 'Raw palm images are never stored; only protected templates that cannot be reversed.',
    },
    verifiable: {
      title: 'Consent you can verify',
      body: 'Every use of your palm leaves a record that cannot be changed afterwards.',
    },
    inclusive: {
      title: 'For everyone in India',
      body: 'Works for people without a smartphone, a bank card or a good memory for passwords.',
    },
  },
  flow: {
    title: 'Technology flow',
    step: 'Step {{number}}',
    scan: {
      title: 'Palm scan',
      body: 'A phone or kiosk camera finds the hand by its landmarks (or in a drawn guide box) and takes three pictures of the palm, in ordinary light.',
    },
    hash: {
      title: 'Hash engine',
      body: 'Our server reads the orientation of the palm’s lines and creases in the three pictures and turns it into an irreversible, keyed template (Index-of-Max). The pictures are dropped.',
    },
    consent: {
      title: 'Consent contract',
      body: 'Your consent to this payment is written to the append-only consent log.',
    },
    mint: {
      title: 'Blockchain mint',
      body: 'The log is anchored on a public blockchain (Polygon by default, Celo supported), so records can be verified.',
    },
    wallet: {
      title: 'Wallet execution',
      body: 'The amount moves between INR wallets on a double-entry ledger.',
    },
  },
  security: {
    title: 'Security framework',
    templates: {
      title: 'Irreversible, keyed templates',
      body: 'Palm features are turned into protected templates bound to a secret key. They cannot be turned back into an image, and a template can be revoked and re-issued.',
    },
    replay: {
      title: 'Replay guard and payment limits',
      body: 'A scan that copies an earlier scan is refused, but a heavily altered copy can still pass, and the camera cannot tell a live hand from a photo. So a palm alone pays only small amounts; anything more waits for a code.',
    },
    log: {
      title: 'Append-only consent log',
      body: 'Consents and payments can be added but never edited or removed, and regular checkpoints are anchored on chain.',
    },
    ledger: {
      title: 'Double-entry ledger',
      body: 'Every rupee is booked twice, as a debit and a credit, and an auditor checks that the books balance.',
    },
    access: {
      title: 'Verified access',
      body: 'Logins and transfers are confirmed with one-time codes, and connections are encrypted.',
    },
  },
  stack: {
    title: 'Technology stack',
    scanner: {
      title: 'Camera palm scanner',
      body: 'The camera of a phone or a kiosk, in ordinary light: hand landmarks find the palm and a square of it is cut out. No special sensor.',
    },
    engine: {
      title: 'Template engine',
      body: 'Line-orientation features from three pictures combined, keyed Index-of-Max protection, and a search of every registered palm.',
    },
    chain: {
      title: 'Verifiable log',
      body: 'An append-only log anchored on Polygon by default; Celo is supported as an alternative.',
    },
    ledger: {
      title: 'Ledger and API',
      body: 'A double-entry ledger on PostgreSQL behind a documented JSON API.',
    },
    apps: {
      title: 'Web and POS apps',
      body: 'The Hasta web app, the merchant dashboard and an Android POS app.',
    },
  },
  patent: {
    title: 'Patent status',
    badge: 'Patent pending',
    body: '{{claims}} claims have been filed covering the palm template method, the consent registry and the payment flow.',
  },
  network: {
    title: 'Kiosk and POS network',
    body: 'Kiosks are where people register their palm; POS partners are where they pay with it.',
    kiosksTitle: 'Palm kiosks',
    kiosksBody:
      'Registration kiosks in schools, offices, stores and NGOs. A new user gets {{points}} bonus points for registering at one.',
    posTitle: 'POS partners',
    posBody:
      'An Android POS device, or a palm scanner that pairs with your existing terminal over Bluetooth 5.0.',
    viewPos: 'View POS Specs',
    host: 'Host a Kiosk',
    locate: 'Locate kiosk',
  },
  faq: {
    title: 'Frequently asked questions',
    storage: {
      question: 'Does Hasta store an image of my palm?',
      answer:
        'No. The scanner sends three small grey pictures of your palm to our server, which turns them into an irreversible, keyed template, a protected set of numbers that cannot be turned back into a picture, and drops the pictures as soon as the scan is handled. They are never stored or logged.',
    },
    security: {
      question: 'How secure is paying with my palm?',
      answer:
        'Your palm alone pays only small amounts: at most ₹5,000 a payment, ₹5,000 a day and 5 payments an hour. A larger or more frequent payment waits for a code sent to your phone (or email), and a newly registered palm cannot pay without that code for its first 24 hours. Every palm payment sends you a message with a “Not me?” link: following it pauses palm pay at once and opens a dispute, which our team refunds or rejects. The person you pay sees only your initial and a masked address, never your email or phone. Money moves on a double-entry ledger, and each payment and consent is written to a log that cannot be quietly changed.',
    },
    faceUnlock: {
      question: 'How is this different from face unlock?',
      answer:
        'Hasta reads the lines and creases of your palm, not your face, from pictures taken when you hold your palm up to the scanner’s camera on purpose: nothing is paid because you walked past a camera. Like a face, a palm can be photographed, and the camera cannot tell a live hand from a photo, so a palm alone pays only small amounts and anything more waits for a code sent to you.',
    },
    merchantMisuse: {
      question: 'Can a merchant misuse my palm data?',
      answer:
        'Merchants never receive your palm data or your template. Their terminal sends the scan to be matched and learns only whether that one payment went through; you appear to them as your initial and a masked address (like a•••@g•••), never your email or phone. Every charge is tied to a consent record and sends you a message, so you can see which merchant charged what, and when.',
    },
    consent: {
      question: 'How is my consent recorded?',
      answer:
        'When you register your palm and every time you pay, a consent record is added to an append-only log: entries can be added but never edited or deleted. Checkpoints of the log are anchored on a public blockchain, so anyone can check that no record was altered later.',
    },
    injury: {
      question: 'What if my hand is injured?',
      answer:
        'You can register both hands, so you can pay with the other one. If neither can be scanned for a while, log in with an OTP or your password and use the app as usual; you can re-register your palm once it has healed.',
    },
    spoofing: {
      question: 'Can someone fool the scanner with a photo or a fake hand?',
      answer:
        'A camera can be shown a good photo of a palm, so Hasta never lets a scan alone move much money or register a palm. A copy of an earlier scan (the same frames, re-encoded, shifted or cropped) is refused as a replay; a copy altered heavily enough can still pass, which is why the limits below apply. A palm alone pays at most ₹5,000 a payment, ₹5,000 a day and 5 payments an hour; anything more waits for a code sent to your phone (or email). Registering a palm needs a code sent to the account owner’s own phone or email, and an admin cannot register a palm on anyone’s account without the owner’s approval. If a payment was not you, the “Not me?” link in its message pauses palm pay at once. A leaked template cannot be turned into a fake palm, because it is irreversible and keyed.',
    },
    upi: {
      question: 'Does Hasta work with UPI?',
      answer:
        'Not yet: UPI integration is coming soon. Today you pay from your Hasta INR wallet; once UPI is connected you will be able to pay to and from any UPI address.',
    },
    privacy: {
      question: 'What data does Hasta keep about me?',
      answer:
        'Only what running your wallet needs: your name, your email or phone, your balance and transactions, your protected palm templates and your consent records. Raw biometric images are never stored, and we do not sell your data.',
    },
    speed: {
      question: 'How fast is a palm payment?',
      answer:
        'Once the scanner has its three pictures, our server makes the template and finds your palm among the registered ones in under {{seconds}} s for 95 % of scans in our benchmark, with 1 million palms registered. Holding your palm up while the camera takes the pictures, and the network, come on top, so the whole payment, from scan to receipt, usually takes a few seconds.',
    },
    offline: {
      question: 'Can I pay without an internet connection?',
      answer:
        'Not yet: offline buffer mode is coming soon. It will queue payments safely on the terminal when the network drops and settle them once it is back. Today a palm payment needs a connection.',
    },
    blockchain: {
      question: 'Which blockchain does Hasta use?',
      answer:
        'Consent and payment records go into a verifiable append-only log whose checkpoints are anchored on Polygon by default; Celo is also supported. Only fingerprints (hashes) go on chain, never your palm data, your name or your balance.',
    },
    pos: {
      question: 'Can I use Hasta with my existing POS terminal?',
      answer:
        'Yes. The Hasta palm scanner pairs with existing POS terminals over Bluetooth 5.0, and partners can also use our Android POS device. See the POS specifications above.',
    },
    international: {
      question: 'Can I use Hasta outside India?',
      answer:
        'Not at the moment. Hasta is built for India: wallets hold Indian rupees and accounts use an Indian phone number or an email address. International use may come later.',
    },
    breach: {
      question: 'How do you prevent and handle a data breach?',
      answer:
        'We keep as little as possible: no palm images at all, and templates that are protected (irreversible and bound to a secret key) and encrypted, so a stolen template cannot recreate your palm or work at another service; it can be revoked and you can register again. Someone who gets hold of your palm or your session still cannot take more than ₹5,000 a payment, ₹5,000 a day or 5 payments an hour without your code, nor register a new palm without a code sent to you, and every palm payment tells you at once: “Not me?” pauses palm pay and opens a dispute that our team refunds or rejects. The append-only log makes any tampering with records visible.',
    },
  },
  demoLink: 'See how a payment works',
};
