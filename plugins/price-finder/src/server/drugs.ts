/**
 * The price list: common US outpatient drugs with their usual strengths and forms, priced per unit (tablet, capsule,
 * mL, g, inhaler, pen ...) in integer cents. AWP (average wholesale price) is the list price; ours is the plan's
 * negotiated price, a generic's a small share of AWP, a brand's close to it. Generated deterministically from the
 * tables below, so the migration's text never changes.
 */
interface Drug {
  name: string;
  /** Brand-only drugs keep most of their AWP. */
  brand?: boolean;
  strengths: readonly string[];
  forms: readonly string[];
  /** AWP per unit of the lowest strength, dollars. */
  awp: number;
}

const TAB = ['tablet'];
const CAP = ['capsule'];
const TAB_ER = ['tablet', 'extended-release tablet'];

export const DRUGS: readonly Drug[] = [
  { name: 'Amlodipine', strengths: ['2.5 mg', '5 mg', '10 mg'], forms: TAB, awp: 0.62 },
  { name: 'Atorvastatin', strengths: ['10 mg', '20 mg', '40 mg', '80 mg'], forms: TAB, awp: 1.85 },
  { name: 'Lisinopril', strengths: ['2.5 mg', '5 mg', '10 mg', '20 mg', '40 mg'], forms: TAB, awp: 0.48 },
  { name: 'Levothyroxine', strengths: ['25 mcg', '50 mcg', '75 mcg', '88 mcg', '100 mcg', '112 mcg', '125 mcg', '150 mcg'], forms: TAB, awp: 0.95 },
  { name: 'Metformin', strengths: ['500 mg', '850 mg', '1000 mg'], forms: TAB_ER, awp: 0.41 },
  { name: 'Metoprolol Tartrate', strengths: ['25 mg', '50 mg', '100 mg'], forms: TAB, awp: 0.38 },
  { name: 'Metoprolol Succinate', strengths: ['25 mg', '50 mg', '100 mg', '200 mg'], forms: ['extended-release tablet'], awp: 1.12 },
  { name: 'Simvastatin', strengths: ['10 mg', '20 mg', '40 mg'], forms: TAB, awp: 0.9 },
  { name: 'Omeprazole', strengths: ['10 mg', '20 mg', '40 mg'], forms: ['delayed-release capsule'], awp: 1.6 },
  { name: 'Losartan', strengths: ['25 mg', '50 mg', '100 mg'], forms: TAB, awp: 1.05 },
  { name: 'Hydrochlorothiazide', strengths: ['12.5 mg', '25 mg', '50 mg'], forms: TAB, awp: 0.3 },
  { name: 'Gabapentin', strengths: ['100 mg', '300 mg', '400 mg', '600 mg', '800 mg'], forms: ['capsule', 'tablet'], awp: 0.7 },
  { name: 'Sertraline', strengths: ['25 mg', '50 mg', '100 mg'], forms: TAB, awp: 1.25 },
  { name: 'Escitalopram', strengths: ['5 mg', '10 mg', '20 mg'], forms: TAB, awp: 1.4 },
  { name: 'Fluoxetine', strengths: ['10 mg', '20 mg', '40 mg'], forms: ['capsule', 'tablet'], awp: 0.85 },
  { name: 'Bupropion', strengths: ['75 mg', '100 mg', '150 mg', '300 mg'], forms: ['tablet', 'extended-release tablet'], awp: 1.9 },
  { name: 'Trazodone', strengths: ['50 mg', '100 mg', '150 mg'], forms: TAB, awp: 0.55 },
  { name: 'Citalopram', strengths: ['10 mg', '20 mg', '40 mg'], forms: TAB, awp: 0.6 },
  { name: 'Duloxetine', strengths: ['20 mg', '30 mg', '60 mg'], forms: ['delayed-release capsule'], awp: 2.8 },
  { name: 'Venlafaxine', strengths: ['37.5 mg', '75 mg', '150 mg'], forms: ['extended-release capsule'], awp: 2.2 },
  { name: 'Amoxicillin', strengths: ['250 mg', '500 mg', '875 mg'], forms: ['capsule', 'tablet'], awp: 0.5 },
  { name: 'Amoxicillin and Clavulanate', strengths: ['500 mg/125 mg', '875 mg/125 mg'], forms: TAB, awp: 2.4 },
  { name: 'Azithromycin', strengths: ['250 mg', '500 mg'], forms: TAB, awp: 4.1 },
  { name: 'Cephalexin', strengths: ['250 mg', '500 mg'], forms: CAP, awp: 0.95 },
  { name: 'Ciprofloxacin', strengths: ['250 mg', '500 mg', '750 mg'], forms: TAB, awp: 1.3 },
  { name: 'Doxycycline Hyclate', strengths: ['50 mg', '100 mg'], forms: ['capsule', 'tablet'], awp: 2.6 },
  { name: 'Sulfamethoxazole and Trimethoprim', strengths: ['400 mg/80 mg', '800 mg/160 mg'], forms: TAB, awp: 0.65 },
  { name: 'Prednisone', strengths: ['1 mg', '5 mg', '10 mg', '20 mg', '50 mg'], forms: TAB, awp: 0.25 },
  { name: 'Methylprednisolone', strengths: ['4 mg'], forms: ['tablet dose pack'], awp: 1.5 },
  { name: 'Montelukast', strengths: ['4 mg', '5 mg', '10 mg'], forms: ['tablet', 'chewable tablet'], awp: 2.9 },
  { name: 'Cetirizine', strengths: ['5 mg', '10 mg'], forms: TAB, awp: 0.35 },
  { name: 'Fexofenadine', strengths: ['60 mg', '180 mg'], forms: TAB, awp: 0.75 },
  { name: 'Pantoprazole', strengths: ['20 mg', '40 mg'], forms: ['delayed-release tablet'], awp: 1.7 },
  { name: 'Famotidine', strengths: ['10 mg', '20 mg', '40 mg'], forms: TAB, awp: 0.45 },
  { name: 'Ondansetron', strengths: ['4 mg', '8 mg'], forms: ['tablet', 'orally disintegrating tablet'], awp: 2.1 },
  { name: 'Tamsulosin', strengths: ['0.4 mg'], forms: CAP, awp: 1.15 },
  { name: 'Finasteride', strengths: ['1 mg', '5 mg'], forms: TAB, awp: 1.45 },
  { name: 'Furosemide', strengths: ['20 mg', '40 mg', '80 mg'], forms: TAB, awp: 0.28 },
  { name: 'Spironolactone', strengths: ['25 mg', '50 mg', '100 mg'], forms: TAB, awp: 0.7 },
  { name: 'Carvedilol', strengths: ['3.125 mg', '6.25 mg', '12.5 mg', '25 mg'], forms: TAB, awp: 0.52 },
  { name: 'Clopidogrel', strengths: ['75 mg'], forms: TAB, awp: 1.9 },
  { name: 'Warfarin', strengths: ['1 mg', '2 mg', '2.5 mg', '3 mg', '4 mg', '5 mg', '6 mg', '7.5 mg', '10 mg'], forms: TAB, awp: 0.62 },
  { name: 'Apixaban', brand: true, strengths: ['2.5 mg', '5 mg'], forms: TAB, awp: 9.8 },
  { name: 'Rivaroxaban', brand: true, strengths: ['2.5 mg', '10 mg', '15 mg', '20 mg'], forms: TAB, awp: 19.4 },
  { name: 'Rosuvastatin', strengths: ['5 mg', '10 mg', '20 mg', '40 mg'], forms: TAB, awp: 2.3 },
  { name: 'Pravastatin', strengths: ['10 mg', '20 mg', '40 mg', '80 mg'], forms: TAB, awp: 1.2 },
  { name: 'Ezetimibe', strengths: ['10 mg'], forms: TAB, awp: 2.5 },
  { name: 'Valsartan', strengths: ['40 mg', '80 mg', '160 mg', '320 mg'], forms: TAB, awp: 1.6 },
  { name: 'Diltiazem', strengths: ['120 mg', '180 mg', '240 mg', '300 mg'], forms: ['extended-release capsule'], awp: 2.7 },
  { name: 'Clonidine', strengths: ['0.1 mg', '0.2 mg', '0.3 mg'], forms: TAB, awp: 0.4 },
  { name: 'Glipizide', strengths: ['5 mg', '10 mg'], forms: TAB_ER, awp: 0.55 },
  { name: 'Glimepiride', strengths: ['1 mg', '2 mg', '4 mg'], forms: TAB, awp: 0.6 },
  { name: 'Pioglitazone', strengths: ['15 mg', '30 mg', '45 mg'], forms: TAB, awp: 1.35 },
  { name: 'Sitagliptin', brand: true, strengths: ['25 mg', '50 mg', '100 mg'], forms: TAB, awp: 18.2 },
  { name: 'Empagliflozin', brand: true, strengths: ['10 mg', '25 mg'], forms: TAB, awp: 21.5 },
  { name: 'Insulin Glargine', brand: true, strengths: ['100 units/mL'], forms: ['vial (per mL)', 'prefilled pen (per mL)'], awp: 29.4 },
  { name: 'Insulin Lispro', brand: true, strengths: ['100 units/mL'], forms: ['vial (per mL)', 'prefilled pen (per mL)'], awp: 31.7 },
  { name: 'Semaglutide', brand: true, strengths: ['0.25 mg/0.5 mL', '1 mg/0.5 mL', '2 mg/0.75 mL'], forms: ['prefilled pen'], awp: 1015.0 },
  { name: 'Alprazolam', strengths: ['0.25 mg', '0.5 mg', '1 mg', '2 mg'], forms: TAB, awp: 0.45 },
  { name: 'Lorazepam', strengths: ['0.5 mg', '1 mg', '2 mg'], forms: TAB, awp: 0.5 },
  { name: 'Clonazepam', strengths: ['0.5 mg', '1 mg', '2 mg'], forms: TAB, awp: 0.42 },
  { name: 'Zolpidem', strengths: ['5 mg', '10 mg'], forms: TAB, awp: 0.9 },
  { name: 'Quetiapine', strengths: ['25 mg', '50 mg', '100 mg', '200 mg', '300 mg'], forms: TAB, awp: 1.1 },
  { name: 'Aripiprazole', strengths: ['2 mg', '5 mg', '10 mg', '15 mg', '20 mg', '30 mg'], forms: TAB, awp: 3.2 },
  { name: 'Lamotrigine', strengths: ['25 mg', '100 mg', '150 mg', '200 mg'], forms: TAB, awp: 1.05 },
  { name: 'Levetiracetam', strengths: ['250 mg', '500 mg', '750 mg', '1000 mg'], forms: TAB, awp: 1.2 },
  { name: 'Topiramate', strengths: ['25 mg', '50 mg', '100 mg', '200 mg'], forms: TAB, awp: 0.95 },
  { name: 'Cyclobenzaprine', strengths: ['5 mg', '10 mg'], forms: TAB, awp: 0.48 },
  { name: 'Meloxicam', strengths: ['7.5 mg', '15 mg'], forms: TAB, awp: 0.4 },
  { name: 'Naproxen', strengths: ['250 mg', '375 mg', '500 mg'], forms: TAB, awp: 0.5 },
  { name: 'Ibuprofen', strengths: ['400 mg', '600 mg', '800 mg'], forms: TAB, awp: 0.3 },
  { name: 'Tramadol', strengths: ['50 mg'], forms: TAB, awp: 0.55 },
  { name: 'Hydrocodone and Acetaminophen', strengths: ['5 mg/325 mg', '7.5 mg/325 mg', '10 mg/325 mg'], forms: TAB, awp: 0.85 },
  { name: 'Oxycodone', strengths: ['5 mg', '10 mg', '15 mg', '30 mg'], forms: TAB, awp: 1.3 },
  { name: 'Allopurinol', strengths: ['100 mg', '300 mg'], forms: TAB, awp: 0.35 },
  { name: 'Colchicine', strengths: ['0.6 mg'], forms: ['tablet', 'capsule'], awp: 4.9 },
  { name: 'Alendronate', strengths: ['35 mg', '70 mg'], forms: TAB, awp: 3.8 },
  { name: 'Estradiol', strengths: ['0.5 mg', '1 mg', '2 mg'], forms: TAB, awp: 0.95 },
  { name: 'Norethindrone', strengths: ['0.35 mg'], forms: TAB, awp: 1.1 },
  { name: 'Sildenafil', strengths: ['20 mg', '25 mg', '50 mg', '100 mg'], forms: TAB, awp: 3.4 },
  { name: 'Tadalafil', strengths: ['2.5 mg', '5 mg', '10 mg', '20 mg'], forms: TAB, awp: 4.2 },
  { name: 'Albuterol', strengths: ['90 mcg/actuation'], forms: ['inhaler'], awp: 62.0 },
  { name: 'Fluticasone', strengths: ['50 mcg/actuation'], forms: ['nasal spray'], awp: 28.5 },
  { name: 'Fluticasone and Salmeterol', strengths: ['100 mcg/50 mcg', '250 mcg/50 mcg', '500 mcg/50 mcg'], forms: ['inhalation powder'], awp: 310.0 },
  { name: 'Budesonide and Formoterol', brand: true, strengths: ['80 mcg/4.5 mcg', '160 mcg/4.5 mcg'], forms: ['inhaler'], awp: 385.0 },
  { name: 'Tiotropium', brand: true, strengths: ['18 mcg', '1.25 mcg/actuation', '2.5 mcg/actuation'], forms: ['inhalation'], awp: 520.0 },
  { name: 'Valacyclovir', strengths: ['500 mg', '1 g'], forms: TAB, awp: 3.1 },
  { name: 'Acyclovir', strengths: ['400 mg', '800 mg'], forms: TAB, awp: 0.95 },
  { name: 'Oseltamivir', strengths: ['30 mg', '45 mg', '75 mg'], forms: CAP, awp: 11.2 },
  { name: 'Fluconazole', strengths: ['50 mg', '100 mg', '150 mg', '200 mg'], forms: TAB, awp: 3.3 },
  { name: 'Nitrofurantoin', strengths: ['50 mg', '100 mg'], forms: CAP, awp: 2.0 },
  { name: 'Metronidazole', strengths: ['250 mg', '500 mg'], forms: TAB, awp: 0.7 },
  { name: 'Mupirocin', strengths: ['2%'], forms: ['ointment (per g)'], awp: 1.1 },
  { name: 'Triamcinolone', strengths: ['0.025%', '0.1%', '0.5%'], forms: ['cream (per g)', 'ointment (per g)'], awp: 0.45 },
  { name: 'Hydrocortisone', strengths: ['1%', '2.5%'], forms: ['cream (per g)', 'ointment (per g)'], awp: 0.4 },
  { name: 'Latanoprost', strengths: ['0.005%'], forms: ['ophthalmic solution (per mL)'], awp: 14.0 },
  { name: 'Timolol', strengths: ['0.25%', '0.5%'], forms: ['ophthalmic solution (per mL)'], awp: 6.5 },
  { name: 'Potassium Chloride', strengths: ['8 mEq', '10 mEq', '20 mEq'], forms: ['extended-release tablet'], awp: 0.75 },
  { name: 'Folic Acid', strengths: ['1 mg'], forms: TAB, awp: 0.12 },
  { name: 'Vitamin D2 (Ergocalciferol)', strengths: ['1.25 mg (50,000 units)'], forms: CAP, awp: 1.05 },
  { name: 'Cyanocobalamin', strengths: ['1000 mcg/mL'], forms: ['injection (per mL)'], awp: 2.4 },
  { name: 'Methotrexate', strengths: ['2.5 mg'], forms: TAB, awp: 1.6 },
  { name: 'Hydroxychloroquine', strengths: ['200 mg'], forms: TAB, awp: 1.95 },
  { name: 'Adalimumab', brand: true, strengths: ['40 mg/0.4 mL', '40 mg/0.8 mL'], forms: ['prefilled pen'], awp: 3490.0 },
  { name: 'Etanercept', brand: true, strengths: ['25 mg/0.5 mL', '50 mg/mL'], forms: ['prefilled syringe'], awp: 1780.0 },
  { name: 'Buprenorphine and Naloxone', strengths: ['2 mg/0.5 mg', '8 mg/2 mg'], forms: ['sublingual film', 'sublingual tablet'], awp: 6.8 },
  { name: 'Naltrexone', strengths: ['50 mg'], forms: TAB, awp: 2.9 },
  { name: 'Donepezil', strengths: ['5 mg', '10 mg', '23 mg'], forms: TAB, awp: 1.5 },
  { name: 'Memantine', strengths: ['5 mg', '10 mg'], forms: TAB, awp: 2.1 },
  { name: 'Ropinirole', strengths: ['0.25 mg', '0.5 mg', '1 mg', '2 mg', '3 mg', '4 mg', '5 mg'], forms: TAB, awp: 0.8 },
  { name: 'Carbidopa and Levodopa', strengths: ['10 mg/100 mg', '25 mg/100 mg', '25 mg/250 mg'], forms: TAB_ER, awp: 1.25 },
  { name: 'Baclofen', strengths: ['5 mg', '10 mg', '20 mg'], forms: TAB, awp: 0.7 },
  { name: 'Tizanidine', strengths: ['2 mg', '4 mg'], forms: ['tablet', 'capsule'], awp: 0.6 },
  { name: 'Methocarbamol', strengths: ['500 mg', '750 mg'], forms: TAB, awp: 0.55 },
  { name: 'Propranolol', strengths: ['10 mg', '20 mg', '40 mg', '80 mg'], forms: TAB, awp: 0.5 },
  { name: 'Atenolol', strengths: ['25 mg', '50 mg', '100 mg'], forms: TAB, awp: 0.35 },
  { name: 'Benazepril', strengths: ['5 mg', '10 mg', '20 mg', '40 mg'], forms: TAB, awp: 0.6 },
  { name: 'Enalapril', strengths: ['2.5 mg', '5 mg', '10 mg', '20 mg'], forms: TAB, awp: 0.9 },
  { name: 'Irbesartan', strengths: ['75 mg', '150 mg', '300 mg'], forms: TAB, awp: 1.4 },
  { name: 'Olmesartan', strengths: ['5 mg', '20 mg', '40 mg'], forms: TAB, awp: 2.0 },
  { name: 'Nifedipine', strengths: ['30 mg', '60 mg', '90 mg'], forms: ['extended-release tablet'], awp: 1.85 },
  { name: 'Hydralazine', strengths: ['10 mg', '25 mg', '50 mg', '100 mg'], forms: TAB, awp: 0.65 },
  { name: 'Isosorbide Mononitrate', strengths: ['30 mg', '60 mg', '120 mg'], forms: ['extended-release tablet'], awp: 0.95 },
  { name: 'Digoxin', strengths: ['125 mcg', '250 mcg'], forms: TAB, awp: 1.3 },
  { name: 'Amiodarone', strengths: ['100 mg', '200 mg', '400 mg'], forms: TAB, awp: 1.6 },
  { name: 'Fenofibrate', strengths: ['48 mg', '54 mg', '145 mg', '160 mg'], forms: TAB, awp: 2.2 },
  { name: 'Gemfibrozil', strengths: ['600 mg'], forms: TAB, awp: 0.9 },
  { name: 'Ranolazine', strengths: ['500 mg', '1000 mg'], forms: ['extended-release tablet'], awp: 6.4 },
  { name: 'Levocetirizine', strengths: ['5 mg'], forms: TAB, awp: 0.8 },
  { name: 'Benzonatate', strengths: ['100 mg', '200 mg'], forms: CAP, awp: 0.75 },
  { name: 'Promethazine', strengths: ['12.5 mg', '25 mg', '50 mg'], forms: TAB, awp: 0.45 },
  { name: 'Meclizine', strengths: ['12.5 mg', '25 mg'], forms: TAB, awp: 0.3 },
  { name: 'Dicyclomine', strengths: ['10 mg', '20 mg'], forms: ['capsule', 'tablet'], awp: 0.7 },
  { name: 'Mesalamine', strengths: ['400 mg', '800 mg', '1.2 g'], forms: ['delayed-release tablet'], awp: 5.2 },
  { name: 'Lansoprazole', strengths: ['15 mg', '30 mg'], forms: ['delayed-release capsule'], awp: 2.6 },
  { name: 'Esomeprazole', strengths: ['20 mg', '40 mg'], forms: ['delayed-release capsule'], awp: 3.4 },
  { name: 'Sucralfate', strengths: ['1 g'], forms: TAB, awp: 1.15 },
  { name: 'Oxybutynin', strengths: ['5 mg', '10 mg', '15 mg'], forms: TAB_ER, awp: 1.05 },
  { name: 'Mirabegron', brand: true, strengths: ['25 mg', '50 mg'], forms: ['extended-release tablet'], awp: 15.6 },
  { name: 'Thyroid (Armour)', strengths: ['15 mg', '30 mg', '60 mg', '90 mg', '120 mg'], forms: TAB, awp: 1.4 },
  { name: 'Liothyronine', strengths: ['5 mcg', '25 mcg', '50 mcg'], forms: TAB, awp: 2.3 },
  { name: 'Methimazole', strengths: ['5 mg', '10 mg'], forms: TAB, awp: 0.85 },
  { name: 'Testosterone Cypionate', strengths: ['100 mg/mL', '200 mg/mL'], forms: ['injection (per mL)'], awp: 18.5 },
  { name: 'Medroxyprogesterone', strengths: ['2.5 mg', '5 mg', '10 mg', '150 mg/mL'], forms: ['tablet', 'injection (per mL)'], awp: 1.3 },
  { name: 'Lithium Carbonate', strengths: ['150 mg', '300 mg', '600 mg'], forms: ['capsule', 'extended-release tablet'], awp: 0.5 },
  { name: 'Risperidone', strengths: ['0.25 mg', '0.5 mg', '1 mg', '2 mg', '3 mg', '4 mg'], forms: ['tablet', 'orally disintegrating tablet'], awp: 0.95 },
  { name: 'Olanzapine', strengths: ['2.5 mg', '5 mg', '7.5 mg', '10 mg', '15 mg', '20 mg'], forms: ['tablet', 'orally disintegrating tablet'], awp: 1.8 },
  { name: 'Mirtazapine', strengths: ['7.5 mg', '15 mg', '30 mg', '45 mg'], forms: ['tablet', 'orally disintegrating tablet'], awp: 1.1 },
  { name: 'Paroxetine', strengths: ['10 mg', '20 mg', '30 mg', '40 mg'], forms: TAB, awp: 1.0 },
  { name: 'Buspirone', strengths: ['5 mg', '7.5 mg', '10 mg', '15 mg', '30 mg'], forms: TAB, awp: 0.6 },
  { name: 'Hydroxyzine', strengths: ['10 mg', '25 mg', '50 mg'], forms: ['tablet', 'capsule'], awp: 0.5 },
  { name: 'Amphetamine Salts', strengths: ['5 mg', '10 mg', '15 mg', '20 mg', '25 mg', '30 mg'], forms: ['tablet', 'extended-release capsule'], awp: 3.6 },
  {
    name: 'Methylphenidate',
    strengths: ['5 mg', '10 mg', '18 mg', '20 mg', '27 mg', '36 mg', '54 mg'],
    forms: ['tablet', 'extended-release tablet'],
    awp: 4.1,
  },
  { name: 'Sumatriptan', strengths: ['25 mg', '50 mg', '100 mg'], forms: TAB, awp: 4.7 },
  { name: 'Rizatriptan', strengths: ['5 mg', '10 mg'], forms: ['tablet', 'orally disintegrating tablet'], awp: 5.3 },
  { name: 'Pregabalin', strengths: ['25 mg', '50 mg', '75 mg', '100 mg', '150 mg', '200 mg', '300 mg'], forms: CAP, awp: 2.4 },
  { name: 'Celecoxib', strengths: ['50 mg', '100 mg', '200 mg', '400 mg'], forms: CAP, awp: 2.7 },
  { name: 'Diclofenac', strengths: ['50 mg', '75 mg', '1%'], forms: ['delayed-release tablet', 'gel (per g)'], awp: 0.9 },
  { name: 'Terbinafine', strengths: ['250 mg'], forms: TAB, awp: 1.3 },
  { name: 'Clindamycin', strengths: ['150 mg', '300 mg'], forms: CAP, awp: 1.7 },
  { name: 'Levofloxacin', strengths: ['250 mg', '500 mg', '750 mg'], forms: TAB, awp: 3.0 },
  { name: 'Clarithromycin', strengths: ['250 mg', '500 mg'], forms: TAB, awp: 2.9 },
  { name: 'Penicillin V Potassium', strengths: ['250 mg', '500 mg'], forms: TAB, awp: 0.55 },
  { name: 'Bisoprolol', strengths: ['2.5 mg', '5 mg', '10 mg'], forms: TAB, awp: 0.85 },
  { name: 'Torsemide', strengths: ['5 mg', '10 mg', '20 mg', '100 mg'], forms: TAB, awp: 0.9 },
  { name: 'Chlorthalidone', strengths: ['25 mg', '50 mg'], forms: TAB, awp: 1.0 },
  { name: 'Dapagliflozin', brand: true, strengths: ['5 mg', '10 mg'], forms: TAB, awp: 20.8 },
  { name: 'Linagliptin', brand: true, strengths: ['5 mg'], forms: TAB, awp: 18.9 },
  { name: 'Ticagrelor', brand: true, strengths: ['60 mg', '90 mg'], forms: TAB, awp: 7.9 },
  { name: 'Sacubitril and Valsartan', brand: true, strengths: ['24 mg/26 mg', '49 mg/51 mg', '97 mg/103 mg'], forms: TAB, awp: 10.6 },
];

/** A package size per form: the count a pharmacy stocks (bottles of 30, 90, 100, 500 ...). */
const PACKS = [30, 90, 100, 500, 1000] as const;

export interface PriceLine {
  code: string;
  description: string;
  ourCents: number;
  awpCents: number;
}

/** A small deterministic generator (mulberry32) so the list is the same on every install. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every drug × strength × form × package line, with an NDC-style 11-digit code (labeler-product-package). */
export function priceLines(): PriceLine[] {
  const r = mulberry32(20261122);
  const lines: PriceLine[] = [];
  const seen = new Set<string>();
  DRUGS.forEach((drug, di) => {
    drug.strengths.forEach((strength, si) => {
      // Price grows with the strength, less than linearly.
      const awpUnit = drug.awp * (1 + si * 0.35);
      for (const form of drug.forms) {
        const unitForm = form.includes('(per') || /pen|syringe|inhaler|spray|inhalation|powder|pack/.test(form);
        const packs = unitForm ? [1] : PACKS;
        for (const pack of packs) {
          const labeler = String(100 + ((di * 37 + si * 11) % 800)).padStart(5, '0');
          let code = '';
          do code = `${labeler}-${String(Math.floor(r() * 10000)).padStart(4, '0')}-${String(Math.floor(r() * 100)).padStart(2, '0')}`;
          while (seen.has(code));
          seen.add(code);
          // Bigger packs are cheaper per unit.
          const packFactor = pack >= 500 ? 0.9 : pack >= 90 ? 0.95 : 1;
          const awpCents = Math.max(1, Math.round(awpUnit * packFactor * (0.92 + r() * 0.16) * 100));
          const share = drug.brand ? 0.82 + r() * 0.1 : 0.12 + r() * 0.3;
          const ourCents = Math.max(1, Math.min(awpCents, Math.round(awpCents * share)));
          const packText = unitForm ? '' : `, bottle of ${pack}`;
          lines.push({ code, description: `${drug.name} ${strength} ${form}${packText}`, ourCents, awpCents });
        }
      }
    });
  });
  return lines;
}
