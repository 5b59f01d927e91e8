"""Real works for the reference-search benchmark (bench/bib_bench.py): title, authors (given,
family), year, venue, DOI or arXiv ID, as their title pages give them. The loopback registries serve
these records and nothing else, so the benchmark measures citecheck's reading of reference lists
and .bib entries and its validation of search results, not registry data. Chosen for what trips a
matcher: subtitles, question marks, particles (van der Maaten), accents (Schölkopf, Müller), hyphens,
consortia, single authors, near-identical titles (two "Attention" papers, two "Deep learning"s)."""
from __future__ import annotations

from typing import NamedTuple


class W(NamedTuple):
    title: str
    authors: list[tuple[str, str]]
    year: int
    venue: str
    doi: str = ""
    arxiv: str = ""


WORKS: list[W] = [
    W("Deep Residual Learning for Image Recognition", [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")], 2016, "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition", doi="10.1109/CVPR.2016.90"),
    W("Long Short-Term Memory", [("Sepp", "Hochreiter"), ("Jürgen", "Schmidhuber")], 1997, "Neural Computation", doi="10.1162/neco.1997.9.8.1735"),
    W("Deep learning", [("Yann", "LeCun"), ("Yoshua", "Bengio"), ("Geoffrey", "Hinton")], 2015, "Nature", doi="10.1038/nature14539"),
    W("Gradient-based learning applied to document recognition", [("Yann", "LeCun"), ("Léon", "Bottou"), ("Yoshua", "Bengio"), ("Patrick", "Haffner")], 1998, "Proceedings of the IEEE", doi="10.1109/5.726791"),
    W("Learning representations by back-propagating errors", [("David E.", "Rumelhart"), ("Geoffrey E.", "Hinton"), ("Ronald J.", "Williams")], 1986, "Nature", doi="10.1038/323533a0"),
    W("Random Forests", [("Leo", "Breiman")], 2001, "Machine Learning", doi="10.1023/A:1010933404324"),
    W("XGBoost: A Scalable Tree Boosting System", [("Tianqi", "Chen"), ("Carlos", "Guestrin")], 2016, "Proceedings of the 22nd ACM SIGKDD International Conference on Knowledge Discovery and Data Mining", doi="10.1145/2939672.2939785"),
    W("Array programming with NumPy", [("Charles R.", "Harris"), ("K. Jarrod", "Millman"), ("Stéfan J.", "van der Walt"), ("Ralf", "Gommers")], 2020, "Nature", doi="10.1038/s41586-020-2649-2"),
    W("SciPy 1.0: fundamental algorithms for scientific computing in Python", [("Pauli", "Virtanen"), ("Ralf", "Gommers"), ("Travis E.", "Oliphant")], 2020, "Nature Methods", doi="10.1038/s41592-019-0686-2"),
    W("Controlling the False Discovery Rate: A Practical and Powerful Approach to Multiple Testing", [("Yoav", "Benjamini"), ("Yosef", "Hochberg")], 1995, "Journal of the Royal Statistical Society: Series B (Methodological)", doi="10.1111/j.2517-6161.1995.tb02031.x"),
    W("Regression Shrinkage and Selection Via the Lasso", [("Robert", "Tibshirani")], 1996, "Journal of the Royal Statistical Society: Series B (Methodological)", doi="10.1111/j.2517-6161.1996.tb02080.x"),
    W("Why Most Published Research Findings Are False", [("John P. A.", "Ioannidis")], 2005, "PLoS Medicine", doi="10.1371/journal.pmed.0020124"),
    W("Estimating the reproducibility of psychological science", [("", "Open Science Collaboration")], 2015, "Science", doi="10.1126/science.aac4716"),
    W("Mastering the game of Go with deep neural networks and tree search", [("David", "Silver"), ("Aja", "Huang"), ("Chris J.", "Maddison")], 2016, "Nature", doi="10.1038/nature16961"),
    W("Human-level control through deep reinforcement learning", [("Volodymyr", "Mnih"), ("Koray", "Kavukcuoglu"), ("David", "Silver")], 2015, "Nature", doi="10.1038/nature14236"),
    W("Highly accurate protein structure prediction with AlphaFold", [("John", "Jumper"), ("Richard", "Evans"), ("Alexander", "Pritzel")], 2021, "Nature", doi="10.1038/s41586-021-03819-2"),
    W("ImageNet classification with deep convolutional neural networks", [("Alex", "Krizhevsky"), ("Ilya", "Sutskever"), ("Geoffrey E.", "Hinton")], 2017, "Communications of the ACM", doi="10.1145/3065386"),
    W("Generative adversarial networks", [("Ian", "Goodfellow"), ("Jean", "Pouget-Abadie"), ("Mehdi", "Mirza")], 2020, "Communications of the ACM", doi="10.1145/3422622"),
    W("Kernel methods in machine learning", [("Thomas", "Hofmann"), ("Bernhard", "Schölkopf"), ("Alexander J.", "Smola")], 2008, "The Annals of Statistics", doi="10.1214/009053607000000677"),
    W("Visualizing Data using t-SNE", [("Laurens", "van der Maaten"), ("Geoffrey", "Hinton")], 2008, "Journal of Machine Learning Research", doi="10.5555/jmlr.2008.tsne"),
    W("Statistical Power Analysis for the Behavioral Sciences", [("Jacob", "Cohen")], 1988, "Routledge", doi="10.4324/9780203771587"),
    W("Prospect Theory: An Analysis of Decision under Risk", [("Daniel", "Kahneman"), ("Amos", "Tversky")], 1979, "Econometrica", doi="10.2307/1914185"),
    W("The Nature of the Firm", [("Ronald H.", "Coase")], 1937, "Economica", doi="10.1111/j.1468-0335.1937.tb00002.x"),
    W("A Theory of Justice", [("John", "Rawls")], 1971, "Harvard University Press", doi="10.4159/9780674042605"),
    W("The Market for \"Lemons\": Quality Uncertainty and the Market Mechanism", [("George A.", "Akerlof")], 1970, "The Quarterly Journal of Economics", doi="10.2307/1879431"),
    W("Global warming in the twenty-first century: an alternative scenario", [("James", "Hansen"), ("Makiko", "Sato"), ("Reto", "Ruedy")], 2000, "Proceedings of the National Academy of Sciences", doi="10.1073/pnas.170278997"),
    W("Planetary boundaries: Guiding human development on a changing planet", [("Will", "Steffen"), ("Katherine", "Richardson"), ("Johan", "Rockström")], 2015, "Science", doi="10.1126/science.1259855"),
    W("Economic impacts of climate change on the United States", [("Solomon", "Hsiang"), ("Robert", "Kopp"), ("Amir", "Jina")], 2017, "Science", doi="10.1126/science.aal4369"),
    W("The Hallmarks of Cancer", [("Douglas", "Hanahan"), ("Robert A.", "Weinberg")], 2000, "Cell", doi="10.1016/S0092-8674(00)81683-9"),
    W("A new coronavirus associated with human respiratory disease in China", [("Fan", "Wu"), ("Su", "Zhao"), ("Bin", "Yu")], 2020, "Nature", doi="10.1038/s41586-020-2008-3"),
    W("Safety and Efficacy of the BNT162b2 mRNA Covid-19 Vaccine", [("Fernando P.", "Polack"), ("Stephen J.", "Thomas"), ("Nicholas", "Kitchin")], 2020, "New England Journal of Medicine", doi="10.1056/NEJMoa2034577"),
    W("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer"), ("Niki", "Parmar")], 2017, "arXiv", arxiv="1706.03762"),
    W("Adam: A Method for Stochastic Optimization", [("Diederik P.", "Kingma"), ("Jimmy", "Ba")], 2014, "arXiv", arxiv="1412.6980"),
    W("Auto-Encoding Variational Bayes", [("Diederik P.", "Kingma"), ("Max", "Welling")], 2013, "arXiv", arxiv="1312.6114"),
    W("Language Models are Few-Shot Learners", [("Tom B.", "Brown"), ("Benjamin", "Mann"), ("Nick", "Ryder")], 2020, "arXiv", arxiv="2005.14165"),
    W("Denoising Diffusion Probabilistic Models", [("Jonathan", "Ho"), ("Ajay", "Jain"), ("Pieter", "Abbeel")], 2020, "arXiv", arxiv="2006.11239"),
    W("LoRA: Low-Rank Adaptation of Large Language Models", [("Edward J.", "Hu"), ("Yelong", "Shen"), ("Phillip", "Wallis")], 2021, "arXiv", arxiv="2106.09685"),
    W("Chain-of-Thought Prompting Elicits Reasoning in Large Language Models", [("Jason", "Wei"), ("Xuezhi", "Wang"), ("Dale", "Schuurmans")], 2022, "arXiv", arxiv="2201.11903"),
    W("Neural Machine Translation by Jointly Learning to Align and Translate", [("Dzmitry", "Bahdanau"), ("Kyunghyun", "Cho"), ("Yoshua", "Bengio")], 2014, "arXiv", arxiv="1409.0473"),
    W("Distilling the Knowledge in a Neural Network", [("Geoffrey", "Hinton"), ("Oriol", "Vinyals"), ("Jeff", "Dean")], 2015, "arXiv", arxiv="1503.02531"),
]

# plausible works that exist nowhere (HALLMARK's "plausible fabrication": real-sounding title and authors)
INVENTED: list[W] = [
    W("Deep Residual Forecasting of Quarterly Ocean Heat Content", [("Maria", "Lindqvist"), ("Tomas", "Berg")], 2021, "Journal of Climate Informatics"),
    W("Transformer Models for Venture Capital Due Diligence", [("Rahul", "Mehta"), ("Sarah", "Cole")], 2023, "Journal of Finance and Data Science"),
    W("A Survey of Retrieval-Augmented Memo Writing", [("Elena", "Petrova")], 2024, "ACM Computing Surveys"),
    W("Long Short-Term Memory Networks for Supply Chain Resilience", [("Kenji", "Watanabe"), ("Anna", "Schmidt")], 2019, "Operations Research Letters"),
    W("The Economics of Robotic Warehouse Automation in Southeast Asia", [("Budi", "Santoso")], 2022, "Asian Economic Review"),
    W("Causal Effects of Remote Work on Startup Productivity", [("Jonathan", "Reyes"), ("Mei", "Lin")], 2023, "Management Science Letters"),
    W("Federated Learning for Clinical Trial Recruitment", [("Omar", "Haddad"), ("Lucy", "Grant")], 2021, "Journal of Biomedical Informatics Letters"),
    W("Scaling Laws for Battery Chemistry Discovery", [("Wei", "Zhang"), ("Priya", "Nair")], 2024, "Nature Energy Letters"),
    W("Graph Neural Networks for Fraud Detection in Emerging Markets", [("Carlos", "Mendoza")], 2022, "Expert Systems with Applications Letters"),
    W("On the Limits of Large Language Models in Financial Forecasting", [("Hannah", "Becker"), ("Lukas", "Weber")], 2024, "Journal of Forecasting Studies"),
]
