"""Real works for the scholarly-reference benchmark (bench/scholarly_bench.py): title, authors
(given, family) as their registries record them, year, venue and identifiers. Written from the
papers' own title pages; the loopback registries serve exactly these records, so what the
benchmark measures is citecheck's reading of references and its comparison, not registry data.

Chosen for what trips a matcher: accents (García, Schölkopf, Müller), particles (van der Maaten,
de Freitas), hyphens (Jean-Baptiste, Abu-El-Haija), family names first (Chinese, Korean, Japanese
names written Western order in records), consortia, long author lists, subtitles, LaTeX-ish titles,
question marks, numbers, and medical, physics and social-science venues next to ML."""
from __future__ import annotations

from typing import NamedTuple


class W(NamedTuple):
    title: str
    authors: list[tuple[str, str]]
    year: int
    venue: str
    doi: str = ""
    arxiv: str = ""
    pmid: str = ""
    retracted: bool = False


WORKS: list[W] = [
    W("Deep Residual Learning for Image Recognition", [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")], 2016, "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)", doi="10.1109/CVPR.2016.90"),
    W("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer"), ("Niki", "Parmar"), ("Jakob", "Uszkoreit"), ("Llion", "Jones"), ("Aidan N.", "Gomez"), ("Łukasz", "Kaiser"), ("Illia", "Polosukhin")], 2017, "arXiv", arxiv="1706.03762"),
    W("BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", [("Jacob", "Devlin"), ("Ming-Wei", "Chang"), ("Kenton", "Lee"), ("Kristina", "Toutanova")], 2018, "arXiv", arxiv="1810.04805"),
    W("Highly accurate protein structure prediction with AlphaFold", [("John", "Jumper"), ("Richard", "Evans"), ("Alexander", "Pritzel"), ("Tim", "Green"), ("Michael", "Figurnov")], 2021, "Nature", doi="10.1038/s41586-021-03819-2"),
    W("Visualizing Data using t-SNE", [("Laurens", "van der Maaten"), ("Geoffrey", "Hinton")], 2008, "Journal of Machine Learning Research", doi="10.5555/jmlr.2008.tsne"),
    W("Scikit-learn: Machine Learning in Python", [("Fabian", "Pedregosa"), ("Gaël", "Varoquaux"), ("Alexandre", "Gramfort"), ("Vincent", "Michel"), ("Bertrand", "Thirion")], 2011, "Journal of Machine Learning Research", doi="10.5555/1953048.2078195"),
    W("Generative Adversarial Networks", [("Ian", "Goodfellow"), ("Jean", "Pouget-Abadie"), ("Mehdi", "Mirza"), ("Bing", "Xu"), ("David", "Warde-Farley"), ("Sherjil", "Ozair"), ("Aaron", "Courville"), ("Yoshua", "Bengio")], 2020, "Communications of the ACM", doi="10.1145/3422622"),
    W("Learning representations by back-propagating errors", [("David E.", "Rumelhart"), ("Geoffrey E.", "Hinton"), ("Ronald J.", "Williams")], 1986, "Nature", doi="10.1038/323533a0"),
    W("Long Short-Term Memory", [("Sepp", "Hochreiter"), ("Jürgen", "Schmidhuber")], 1997, "Neural Computation", doi="10.1162/neco.1997.9.8.1735"),
    W("Gradient-based learning applied to document recognition", [("Yann", "LeCun"), ("Léon", "Bottou"), ("Yoshua", "Bengio"), ("Patrick", "Haffner")], 1998, "Proceedings of the IEEE", doi="10.1109/5.726791"),
    W("Mastering the game of Go with deep neural networks and tree search", [("David", "Silver"), ("Aja", "Huang"), ("Chris J.", "Maddison"), ("Arthur", "Guez"), ("Laurent", "Sifre")], 2016, "Nature", doi="10.1038/nature16961"),
    W("Human-level control through deep reinforcement learning", [("Volodymyr", "Mnih"), ("Koray", "Kavukcuoglu"), ("David", "Silver"), ("Andrei A.", "Rusu"), ("Joel", "Veness")], 2015, "Nature", doi="10.1038/nature14236"),
    W("Dropout: A Simple Way to Prevent Neural Networks from Overfitting", [("Nitish", "Srivastava"), ("Geoffrey", "Hinton"), ("Alex", "Krizhevsky"), ("Ilya", "Sutskever"), ("Ruslan", "Salakhutdinov")], 2014, "Journal of Machine Learning Research", doi="10.5555/2627435.2670313"),
    W("ImageNet classification with deep convolutional neural networks", [("Alex", "Krizhevsky"), ("Ilya", "Sutskever"), ("Geoffrey E.", "Hinton")], 2017, "Communications of the ACM", doi="10.1145/3065386"),
    W("Adam: A Method for Stochastic Optimization", [("Diederik P.", "Kingma"), ("Jimmy", "Ba")], 2014, "arXiv", arxiv="1412.6980"),
    W("Auto-Encoding Variational Bayes", [("Diederik P", "Kingma"), ("Max", "Welling")], 2013, "arXiv", arxiv="1312.6114"),
    W("Language Models are Few-Shot Learners", [("Tom B.", "Brown"), ("Benjamin", "Mann"), ("Nick", "Ryder"), ("Melanie", "Subbiah"), ("Jared", "Kaplan")], 2020, "arXiv", arxiv="2005.14165"),
    W("Denoising Diffusion Probabilistic Models", [("Jonathan", "Ho"), ("Ajay", "Jain"), ("Pieter", "Abbeel")], 2020, "arXiv", doi="10.48550/arXiv.2006.11239"),
    W("Scaling Laws for Neural Language Models", [("Jared", "Kaplan"), ("Sam", "McCandlish"), ("Tom", "Henighan"), ("Tom B.", "Brown"), ("Benjamin", "Chess")], 2020, "arXiv", doi="10.48550/arXiv.2001.08361"),
    W("LoRA: Low-Rank Adaptation of Large Language Models", [("Edward J.", "Hu"), ("Yelong", "Shen"), ("Phillip", "Wallis"), ("Zeyuan", "Allen-Zhu"), ("Yuanzhi", "Li"), ("Shean", "Wang"), ("Lu", "Wang"), ("Weizhu", "Chen")], 2021, "arXiv", arxiv="2106.09685"),
    W("Chain-of-Thought Prompting Elicits Reasoning in Large Language Models", [("Jason", "Wei"), ("Xuezhi", "Wang"), ("Dale", "Schuurmans"), ("Maarten", "Bosma"), ("Brian", "Ichter")], 2022, "arXiv", arxiv="2201.11903"),
    W("An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale", [("Alexey", "Dosovitskiy"), ("Lucas", "Beyer"), ("Alexander", "Kolesnikov"), ("Dirk", "Weissenborn"), ("Xiaohua", "Zhai")], 2020, "arXiv", arxiv="2010.11929"),
    W("Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", [("Patrick", "Lewis"), ("Ethan", "Perez"), ("Aleksandra", "Piktus"), ("Fabio", "Petroni"), ("Vladimir", "Karpukhin")], 2020, "arXiv", arxiv="2005.11401"),
    W("Kernel Methods in Machine Learning", [("Thomas", "Hofmann"), ("Bernhard", "Schölkopf"), ("Alexander J.", "Smola")], 2008, "The Annals of Statistics", doi="10.1214/009053607000000677"),
    W("Random Forests", [("Leo", "Breiman")], 2001, "Machine Learning", doi="10.1023/A:1010933404324"),
    W("XGBoost: A Scalable Tree Boosting System", [("Tianqi", "Chen"), ("Carlos", "Guestrin")], 2016, "Proceedings of the 22nd ACM SIGKDD International Conference on Knowledge Discovery and Data Mining", doi="10.1145/2939672.2939785"),
    W("Array programming with NumPy", [("Charles R.", "Harris"), ("K. Jarrod", "Millman"), ("Stéfan J.", "van der Walt"), ("Ralf", "Gommers"), ("Pauli", "Virtanen")], 2020, "Nature", doi="10.1038/s41586-020-2649-2"),
    W("SciPy 1.0: fundamental algorithms for scientific computing in Python", [("Pauli", "Virtanen"), ("Ralf", "Gommers"), ("Travis E.", "Oliphant"), ("Matt", "Haberland"), ("Tyler", "Reddy")], 2020, "Nature Methods", doi="10.1038/s41592-019-0686-2"),
    W("Controlling the False Discovery Rate: A Practical and Powerful Approach to Multiple Testing", [("Yoav", "Benjamini"), ("Yosef", "Hochberg")], 1995, "Journal of the Royal Statistical Society: Series B (Methodological)", doi="10.1111/j.2517-6161.1995.tb02031.x"),
    W("Regression Shrinkage and Selection Via the Lasso", [("Robert", "Tibshirani")], 1996, "Journal of the Royal Statistical Society: Series B (Methodological)", doi="10.1111/j.2517-6161.1996.tb02080.x"),
    W("Why Most Published Research Findings Are False", [("John P. A.", "Ioannidis")], 2005, "PLoS Medicine", doi="10.1371/journal.pmed.0020124", pmid="16060722"),
    W("Estimating the reproducibility of psychological science", [("", "Open Science Collaboration")], 2015, "Science", doi="10.1126/science.aac4716", pmid="26315443"),
    W("A new coronavirus associated with human respiratory disease in China", [("Fan", "Wu"), ("Su", "Zhao"), ("Bin", "Yu"), ("Yan-Mei", "Chen"), ("Wen", "Wang")], 2020, "Nature", doi="10.1038/s41586-020-2008-3", pmid="32015508"),
    W("Clinical features of patients infected with 2019 novel coronavirus in Wuhan, China", [("Chaolin", "Huang"), ("Yeming", "Wang"), ("Xingwang", "Li"), ("Lili", "Ren"), ("Jianping", "Zhao")], 2020, "The Lancet", doi="10.1016/S0140-6736(20)30183-5", pmid="31986264"),
    W("Safety and Efficacy of the BNT162b2 mRNA Covid-19 Vaccine", [("Fernando P.", "Polack"), ("Stephen J.", "Thomas"), ("Nicholas", "Kitchin"), ("Judith", "Absalon"), ("Alejandra", "Gurtman")], 2020, "New England Journal of Medicine", doi="10.1056/NEJMoa2034577", pmid="33301246"),
    W("Global cancer statistics 2018: GLOBOCAN estimates of incidence and mortality worldwide for 36 cancers in 185 countries", [("Freddie", "Bray"), ("Jacques", "Ferlay"), ("Isabelle", "Soerjomataram"), ("Rebecca L.", "Siegel"), ("Lindsey A.", "Torre"), ("Ahmedin", "Jemal")], 2018, "CA: A Cancer Journal for Clinicians", doi="10.3322/caac.21492", pmid="30207593"),
    W("Hallmarks of Cancer: The Next Generation", [("Douglas", "Hanahan"), ("Robert A.", "Weinberg")], 2011, "Cell", doi="10.1016/j.cell.2011.02.013", pmid="21376230"),
    W("A Programmable Dual-RNA–Guided DNA Endonuclease in Adaptive Bacterial Immunity", [("Martin", "Jinek"), ("Krzysztof", "Chylinski"), ("Ines", "Fonfara"), ("Michael", "Hauer"), ("Jennifer A.", "Doudna"), ("Emmanuelle", "Charpentier")], 2012, "Science", doi="10.1126/science.1225829", pmid="22745249"),
    W("Induction of Pluripotent Stem Cells from Mouse Embryonic and Adult Fibroblast Cultures by Defined Factors", [("Kazutoshi", "Takahashi"), ("Shinya", "Yamanaka")], 2006, "Cell", doi="10.1016/j.cell.2006.07.024", pmid="16904174"),
    W("Preferred reporting items for systematic reviews and meta-analyses: the PRISMA statement", [("David", "Moher"), ("Alessandro", "Liberati"), ("Jennifer", "Tetzlaff"), ("Douglas G.", "Altman")], 2009, "BMJ", doi="10.1136/bmj.b2535", pmid="19622551"),
    W("Observation of Gravitational Waves from a Binary Black Hole Merger", [("B. P.", "Abbott"), ("R.", "Abbott"), ("T. D.", "Abbott"), ("M. R.", "Abernathy"), ("F.", "Acernese")], 2016, "Physical Review Letters", doi="10.1103/PhysRevLett.116.061102"),
    W("Quantum supremacy using a programmable superconducting processor", [("Frank", "Arute"), ("Kunal", "Arya"), ("Ryan", "Babbush"), ("Dave", "Bacon"), ("Joseph C.", "Bardin")], 2019, "Nature", doi="10.1038/s41586-019-1666-5"),
    W("Electric Field Effect in Atomically Thin Carbon Films", [("K. S.", "Novoselov"), ("A. K.", "Geim"), ("S. V.", "Morozov"), ("D.", "Jiang"), ("Y.", "Zhang")], 2004, "Science", doi="10.1126/science.1102896"),
    W("Observation of a new particle in the search for the Standard Model Higgs boson with the ATLAS detector at the LHC", [("", "ATLAS Collaboration")], 2012, "Physics Letters B", doi="10.1016/j.physletb.2012.08.020"),
    W("Anti-de Sitter Space and Holography", [("Edward", "Witten")], 1998, "arXiv", arxiv="hep-th/9802150"),
    W("The Large N Limit of Superconformal Field Theories and Supergravity", [("Juan", "Maldacena")], 1997, "arXiv", arxiv="hep-th/9711200"),
    W("The Tragedy of the Commons", [("Garrett", "Hardin")], 1968, "Science", doi="10.1126/science.162.3859.1243", pmid="5699198"),
    W("Prospect Theory: An Analysis of Decision under Risk", [("Daniel", "Kahneman"), ("Amos", "Tversky")], 1979, "Econometrica", doi="10.2307/1914185"),
    W("The Market for \"Lemons\": Quality Uncertainty and the Market Mechanism", [("George A.", "Akerlof")], 1970, "The Quarterly Journal of Economics", doi="10.2307/1879431"),
    W("Bowling Alone: America's Declining Social Capital", [("Robert D.", "Putnam")], 1995, "Journal of Democracy", doi="10.1353/jod.1995.0002"),
    W("Does the Autistic Child have a \"Theory of Mind\"?", [("Simon", "Baron-Cohen"), ("Alan M.", "Leslie"), ("Uta", "Frith")], 1985, "Cognition", doi="10.1016/0010-0277(85)90022-8", pmid="2934210"),
    W("The magical number seven, plus or minus two: Some limits on our capacity for processing information", [("George A.", "Miller")], 1956, "Psychological Review", doi="10.1037/h0043158", pmid="13310704"),
    W("Cooperative Inverse Reinforcement Learning", [("Dylan", "Hadfield-Menell"), ("Anca", "Dragan"), ("Pieter", "Abbeel"), ("Stuart", "Russell")], 2016, "arXiv", arxiv="1606.03137"),
    W("Concrete Problems in AI Safety", [("Dario", "Amodei"), ("Chris", "Olah"), ("Jacob", "Steinhardt"), ("Paul", "Christiano"), ("John", "Schulman"), ("Dan", "Mané")], 2016, "arXiv", arxiv="1606.06565"),
    W("On the Dangers of Stochastic Parrots: Can Language Models Be Too Big?", [("Emily M.", "Bender"), ("Timnit", "Gebru"), ("Angelina", "McMillan-Major"), ("Shmargaret", "Shmitchell")], 2021, "Proceedings of the 2021 ACM Conference on Fairness, Accountability, and Transparency", doi="10.1145/3442188.3445922"),
    W("Gender Shades: Intersectional Accuracy Disparities in Commercial Gender Classification", [("Joy", "Buolamwini"), ("Timnit", "Gebru")], 2018, "Proceedings of Machine Learning Research", doi="10.5555/pmlr.v81.buolamwini18a"),
    W("Deep learning", [("Yann", "LeCun"), ("Yoshua", "Bengio"), ("Geoffrey", "Hinton")], 2015, "Nature", doi="10.1038/nature14539", pmid="26017442"),
    W("Dermatologist-level classification of skin cancer with deep neural networks", [("Andre", "Esteva"), ("Brett", "Kuprel"), ("Roberto A.", "Novoa"), ("Justin", "Ko"), ("Susan M.", "Swetter"), ("Helen M.", "Blau"), ("Sebastian", "Thrun")], 2017, "Nature", doi="10.1038/nature21056", pmid="28117445"),
    W("U-Net: Convolutional Networks for Biomedical Image Segmentation", [("Olaf", "Ronneberger"), ("Philipp", "Fischer"), ("Thomas", "Brox")], 2015, "Medical Image Computing and Computer-Assisted Intervention – MICCAI 2015", doi="10.1007/978-3-319-24574-4_28"),
    W("Mask R-CNN", [("Kaiming", "He"), ("Georgia", "Gkioxari"), ("Piotr", "Dollár"), ("Ross", "Girshick")], 2017, "2017 IEEE International Conference on Computer Vision (ICCV)", doi="10.1109/ICCV.2017.322"),
    W("Playing Atari with Deep Reinforcement Learning", [("Volodymyr", "Mnih"), ("Koray", "Kavukcuoglu"), ("David", "Silver"), ("Alex", "Graves"), ("Ioannis", "Antonoglou"), ("Daan", "Wierstra"), ("Martin", "Riedmiller")], 2013, "arXiv", arxiv="1312.5602"),
    W("Neural Machine Translation by Jointly Learning to Align and Translate", [("Dzmitry", "Bahdanau"), ("Kyunghyun", "Cho"), ("Yoshua", "Bengio")], 2014, "arXiv", arxiv="1409.0473"),
    W("Sequence to Sequence Learning with Neural Networks", [("Ilya", "Sutskever"), ("Oriol", "Vinyals"), ("Quoc V.", "Le")], 2014, "arXiv", arxiv="1409.3215"),
    W("Distilling the Knowledge in a Neural Network", [("Geoffrey", "Hinton"), ("Oriol", "Vinyals"), ("Jeff", "Dean")], 2015, "arXiv", arxiv="1503.02531"),
    W("Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift", [("Sergey", "Ioffe"), ("Christian", "Szegedy")], 2015, "arXiv", arxiv="1502.03167"),
    W("Semi-Supervised Classification with Graph Convolutional Networks", [("Thomas N.", "Kipf"), ("Max", "Welling")], 2016, "arXiv", arxiv="1609.02907"),
    W("Proximal Policy Optimization Algorithms", [("John", "Schulman"), ("Filip", "Wolski"), ("Prafulla", "Dhariwal"), ("Alec", "Radford"), ("Oleg", "Klimov")], 2017, "arXiv", arxiv="1707.06347"),
    W("Implicit SVD for Graph Representation Learning", [("Sami", "Abu-El-Haija"), ("Hesham", "Mostafa"), ("Marcel", "Nassar"), ("Valentino", "Crespi"), ("Greg", "Ver Steeg"), ("Aram", "Galstyan")], 2021, "arXiv", arxiv="2111.06312"),
    W("Hidden Technical Debt in Machine Learning Systems", [("D.", "Sculley"), ("Gary", "Holt"), ("Daniel", "Golovin"), ("Eugene", "Davydov"), ("Todd", "Phillips")], 2015, "Advances in Neural Information Processing Systems", doi="10.5555/2969442.2969519"),
    W("Green AI", [("Roy", "Schwartz"), ("Jesse", "Dodge"), ("Noah A.", "Smith"), ("Oren", "Etzioni")], 2020, "Communications of the ACM", doi="10.1145/3381831"),
    W("Energy and Policy Considerations for Deep Learning in NLP", [("Emma", "Strubell"), ("Ananya", "Ganesh"), ("Andrew", "McCallum")], 2019, "Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics", doi="10.18653/v1/P19-1355"),
    W("GloVe: Global Vectors for Word Representation", [("Jeffrey", "Pennington"), ("Richard", "Socher"), ("Christopher", "Manning")], 2014, "Proceedings of the 2014 Conference on Empirical Methods in Natural Language Processing (EMNLP)", doi="10.3115/v1/D14-1162"),
    W("Datasheets for datasets", [("Timnit", "Gebru"), ("Jamie", "Morgenstern"), ("Briana", "Vecchione"), ("Jennifer Wortman", "Vaughan"), ("Hanna", "Wallach"), ("Hal", "Daumé III"), ("Kate", "Crawford")], 2021, "Communications of the ACM", doi="10.1145/3458723"),
    W("Mastering Atari, Go, chess and shogi by planning with a learned model", [("Julian", "Schrittwieser"), ("Ioannis", "Antonoglou"), ("Thomas", "Hubert"), ("Karen", "Simonyan"), ("Laurent", "Sifre")], 2020, "Nature", doi="10.1038/s41586-020-03051-4"),
    W("Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children", [("A. J.", "Wakefield"), ("S. H.", "Murch"), ("A.", "Anthony"), ("J.", "Linnell"), ("D. M.", "Casson")], 1998, "The Lancet", doi="10.1016/S0140-6736(97)11096-0", pmid="9500320", retracted=True),
    W("Hydroxychloroquine or chloroquine with or without a macrolide for treatment of COVID-19: a multinational registry analysis", [("Mandeep R.", "Mehra"), ("Sapan S.", "Desai"), ("Frank", "Ruschitzka"), ("Amit N.", "Patel")], 2020, "The Lancet", doi="10.1016/S0140-6736(20)31180-6", pmid="32450107", retracted=True),
    W("Cardiovascular Disease, Drug Therapy, and Mortality in Covid-19", [("Mandeep R.", "Mehra"), ("Sapan S.", "Desai"), ("SreyRam", "Kuy"), ("Timothy D.", "Henry"), ("Amit N.", "Patel")], 2020, "New England Journal of Medicine", doi="10.1056/NEJMoa2007621", pmid="32356626", retracted=True),
    W("Stimulus-triggered fate conversion of somatic cells into pluripotency", [("Haruko", "Obokata"), ("Teruhiko", "Wakayama"), ("Yoshiki", "Sasai"), ("Koji", "Kojima"), ("Martin P.", "Vacanti")], 2014, "Nature", doi="10.1038/nature12968", pmid="24476887", retracted=True),
]
